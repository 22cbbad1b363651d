import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { EVENT_LABEL, WORKSPACE_EVENTS } from '../components/AlertBits';
import { SelectField, TextAreaField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { AlertDestinationWithSecret, DestinationType, EventType } from '../types';

const TYPES: { value: DestinationType; label: string }[] = [
  { value: 'webhook', label: 'Webhook (a signed HTTP POST)' },
  { value: 'slack', label: 'Slack (an incoming webhook)' },
  { value: 'email', label: 'E-mail' },
];

/** What the target field of each type is called, hints at and is checked as. */
const TARGET: Record<DestinationType, { label: string; hint: string; placeholder: string; missing: string }> = {
  webhook: {
    label: 'URL',
    hint: 'Where deliveries are POSTed, signed with the Standard Webhooks headers. It must be public.',
    placeholder: 'https://ops.example.com/vigil',
    missing: 'Enter the address that receives the webhooks.',
  },
  slack: {
    label: 'Slack webhook URL',
    hint: 'An incoming-webhook URL from your Slack app (https://hooks.slack.com/services/…).',
    placeholder: 'https://hooks.slack.com/services/…',
    missing: 'Enter the incoming-webhook URL Slack gave you.',
  },
  email: {
    label: 'Addresses',
    hint: 'One to 20 e-mail addresses, one per line or separated by commas. Sent through the service’s SMTP server.',
    placeholder: 'ops@example.com',
    missing: 'Enter at least one e-mail address.',
  },
};

const CONFIG_FIELD: Record<DestinationType, string> = { webhook: 'url', slack: 'webhook_url', email: 'to' };

const addresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter(Boolean);

export function CreateDestinationForm({ onCreated }: { onCreated: (destination: AlertDestinationWithSecret) => void }) {
  const [type, setType] = useState<DestinationType>('webhook');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const [local, setLocal] = useState<{ name?: string; target?: string }>({});
  const targetField = TARGET[type];

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (!name.trim()) problems.name = 'Give the destination a name, such as the team or channel it reaches.';
      if (!target.trim()) problems.target = targetField.missing;
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const config =
        type === 'email'
          ? { to: addresses(target) }
          : type === 'slack'
            ? { webhook_url: target.trim() }
            : { url: target.trim() };
      const ordered = WORKSPACE_EVENTS.map((item) => item.event).filter((event) => events.includes(event));
      const created = await ok(
        api.POST('/alert-destinations', {
          body: { name: name.trim(), type, config, ...(ordered.length ? { events: ordered } : {}) },
        }),
      );
      setName('');
      setTarget('');
      setEvents([]);
      onCreated(created);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const eventsError = fieldError(error, 'events');

  return (
    <section aria-labelledby="add-destination-heading" className="card">
      <h2 id="add-destination-heading">Add a destination</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="The destination was not added: correct the fields marked below" />
        ) : (
          <ProblemAlert error={error} title="The destination was not added" />
        )}
        <SelectField
          id="destination-type"
          label="Type"
          value={type}
          onChange={(next) => {
            setType(next);
            setLocal((current) => ({ ...current, target: undefined }));
          }}
          options={TYPES}
          error={fieldError(error, 'type')}
        />
        <TextField
          id="destination-name"
          label="Name"
          required
          maxLength={100}
          placeholder="e.g. On-call team"
          value={name}
          onChange={setName}
          error={local.name ?? fieldError(error, 'name')}
        />
        {type === 'email' ? (
          <TextAreaField
            id="destination-target"
            label={targetField.label}
            required
            rows={3}
            spellCheck={false}
            placeholder={targetField.placeholder}
            hint={targetField.hint}
            value={target}
            onChange={setTarget}
            error={local.target ?? fieldError(error, `config.${CONFIG_FIELD[type]}`, 'config')}
          />
        ) : (
          <TextField
            id="destination-target"
            type="url"
            label={targetField.label}
            required
            maxLength={2048}
            inputMode="url"
            spellCheck={false}
            placeholder={targetField.placeholder}
            hint={targetField.hint}
            value={target}
            onChange={setTarget}
            error={local.target ?? fieldError(error, `config.${CONFIG_FIELD[type]}`, 'config')}
          />
        )}
        <fieldset className="field" aria-describedby={eventsError ? 'destination-events-error' : undefined}>
          <legend>
            Workspace events <span className="optional">(optional)</span>
          </legend>
          <p className="hint">Besides what the rules of monitors send it, it also receives every event ticked here.</p>
          <ul className="scope-options">
            {WORKSPACE_EVENTS.map(({ event, sends }) => {
              const id = `destination-event-${event.replace(/[._]/g, '-')}`;
              return (
                <li key={event} className="check">
                  <input
                    id={id}
                    type="checkbox"
                    checked={events.includes(event)}
                    onChange={(change) =>
                      setEvents((current) =>
                        change.target.checked ? [...current, event] : current.filter((item) => item !== event),
                      )
                    }
                    aria-describedby={`${id}-sends`}
                  />
                  <label htmlFor={id}>{EVENT_LABEL[event]}</label>
                  <span id={`${id}-sends`} className="scope-grants">
                    Sends {sends}.
                  </span>
                </li>
              );
            })}
          </ul>
          {eventsError ? (
            <p id="destination-events-error" className="field-error">
              {eventsError}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add destination'}
        </button>
      </form>
    </section>
  );
}
