import { useEffect, useId, useRef, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import {
  AlertsTabs,
  canWriteIn,
  DESTINATION_TYPE_LABEL,
  destinationTarget,
  EVENT_LABEL,
  TestResultView,
  WORKSPACE_EVENTS,
} from '../components/AlertBits';
import { Badge } from '../components/Badge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { SelectField, TextAreaField, TextField } from '../components/Field';
import { OneTimeSecret } from '../components/OneTimeSecret';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime } from '../format';
import { useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type {
  AlertDestination,
  AlertDestinationWithSecret,
  CurrentUser,
  DestinationTestResult,
  DestinationType,
  EventType,
} from '../types';

const PER_PAGE = 20;

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

/** A secret the API answered once: a new webhook's, or a rotated one. */
interface ShownSecret {
  destination: AlertDestinationWithSecret & { secret: string };
  rotated: boolean;
}

/** `/alerts`: the workspace's alert destinations: add, test, enable or disable, rotate a secret, delete. */
export function AlertsPage({ me }: { me: CurrentUser }) {
  const canWrite = canWriteIn(me);
  const { search } = useLocation();
  const page = pageParam(search);
  const destinations = useResource(withQuery('/alert-destinations', { page }), (signal) =>
    ok(api.GET('/alert-destinations', { params: { query: { page, per_page: PER_PAGE } }, signal })),
  );
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AlertDestination | null>(null);
  const [rotating, setRotating] = useState<AlertDestination | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  // The deleted destination's button had the focus: once the dialog has closed, carry on from the list's heading.
  const [deletions, setDeletions] = useState(0);
  useEffect(() => {
    if (deletions) listHeading.current?.focus();
  }, [deletions]);

  const replace = (updated: AlertDestination) =>
    destinations.mutate((list) => ({
      ...list,
      data: list.data.map((item) => (item.id === updated.id ? updated : item)),
    }));

  const showSecret = (destination: AlertDestinationWithSecret, rotated: boolean) => {
    const { secret: value } = destination;
    if (value) setSecret({ destination: { ...destination, secret: value }, rotated });
  };

  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">Alerts</p>
          <h1>Destinations</h1>
          <p className="lead">
            Where Vigil sends alerts: a webhook, a Slack channel or e-mail. A monitor’s alert rules (on its page) choose
            destinations; a destination can also take workspace-wide events.
          </p>
        </div>
      </div>
      <AlertsTabs current="destinations" />

      {secret ? (
        <OneTimeSecret
          heading={
            secret.rotated
              ? `New signing secret for “${secret.destination.name}”`
              : `Webhook “${secret.destination.name}” added`
          }
          warning={
            <>
              <strong>Copy this signing secret now.</strong> It is shown only this once and cannot be read again. Your
              receiver checks the <code>webhook-signature</code> header of each delivery with it.
              {secret.rotated
                ? ' The previous secret keeps signing for 24 hours too, so the receiver can switch without missing a delivery.'
                : ' If it is lost, rotate the secret to get a new one.'}
            </>
          }
          label="Signing secret"
          noun="signing secret"
          secret={secret.destination.secret}
          doneLabel="I have stored the secret"
          onDone={() => setSecret(null)}
        >
          <p className="small muted url">Signs deliveries to {destinationTarget(secret.destination)}</p>
        </OneTimeSecret>
      ) : null}

      <div className="settings-layout">
        {canWrite ? (
          <CreateDestinationForm
            onCreated={(created) => {
              setMessage(
                created.secret ? null : `Added “${created.name}”. Send it a test to see that it receives alerts.`,
              );
              showSecret(created, false);
              destinations.reload();
            }}
          />
        ) : (
          <section aria-labelledby="add-destination-heading" className="card">
            <h2 id="add-destination-heading">Add a destination</h2>
            <p className="alert alert-info">
              You are a viewer of {me.workspace.name}: you can read the destinations and the delivery log, but only a
              member or admin can add, test, change or delete a destination, or redeliver an alert.
            </p>
          </section>
        )}

        <section aria-labelledby="destinations-heading" className="card">
          <h2 id="destinations-heading" ref={listHeading} tabIndex={-1}>
            Destinations of {me.workspace.name}
          </h2>
          <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
          <PagedList
            resource={destinations}
            loadingText="Loading destinations…"
            pagesLabel="Destination pages"
            onPage={(next) => navigate(withQuery('/alerts', { page: next }))}
            empty={<p className="muted">No destinations yet: alerts have nowhere to go.</p>}
          >
            {(rows) => (
              <ul className="destination-list">
                {rows.map((destination) => (
                  <DestinationItem
                    key={destination.id}
                    destination={destination}
                    canWrite={canWrite}
                    onChanged={(updated, note) => {
                      replace(updated);
                      setMessage(note);
                    }}
                    onRotate={() => setRotating(destination)}
                    onDelete={() => setDeleting(destination)}
                  />
                ))}
              </ul>
            )}
          </PagedList>
        </section>
      </div>

      {rotating ? (
        <ConfirmDialog
          title={`Give “${rotating.name}” a new signing secret?`}
          confirmLabel="Rotate secret"
          busyLabel="Rotating…"
          onConfirm={async () => {
            const rotated = await ok(
              api.POST('/alert-destinations/{id}/rotate-secret', { params: { path: { id: rotating.id } } }),
            );
            setRotating(null);
            setMessage(null);
            showSecret(rotated, true);
          }}
          onClose={() => setRotating(null)}
        >
          <p>
            The new secret is shown once. For 24 hours deliveries carry two signatures, one with each secret; after
            that, only the new one signs.
          </p>
        </ConfirmDialog>
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete destination"
          busyLabel="Deleting…"
          onConfirm={async () => {
            await ok(api.DELETE('/alert-destinations/{id}', { params: { path: { id: deleting.id } } }));
            setDeleting(null);
            setMessage(`Deleted “${deleting.name}”. Rules no longer send to it.`);
            destinations.mutate((list) => ({ ...list, data: list.data.filter((item) => item.id !== deleting.id) }));
            destinations.reload();
            setDeletions((count) => count + 1);
          }}
          onClose={() => setDeleting(null)}
        >
          <p>Rules stop sending to it, and its delivery log is deleted with it. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function DestinationItem({
  destination,
  canWrite,
  onChanged,
  onRotate,
  onDelete,
}: {
  destination: AlertDestination;
  canWrite: boolean;
  onChanged: (destination: AlertDestination, note: string) => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const headingId = useId();
  const [busy, setBusy] = useState<'test' | 'toggle' | null>(null);
  const [result, setResult] = useState<DestinationTestResult | null>(null);
  const [error, setError] = useState<{ title: string; error: unknown } | null>(null);
  const { id, name } = destination;

  async function test() {
    setBusy('test');
    setError(null);
    setResult(null);
    try {
      setResult(await ok(api.POST('/alert-destinations/{id}/test', { params: { path: { id } } })));
    } catch (caught) {
      setError({ title: `The test ping to “${name}” could not be sent`, error: caught });
    } finally {
      setBusy(null);
    }
  }

  async function toggle() {
    setBusy('toggle');
    setError(null);
    try {
      const updated = await ok(
        api.PATCH('/alert-destinations/{id}', { params: { path: { id } }, body: { enabled: !destination.enabled } }),
      );
      onChanged(
        updated,
        updated.enabled
          ? `Enabled “${updated.name}”: alerts are sent to it again.`
          : `Disabled “${updated.name}”: nothing is sent to it until it is enabled again.`,
      );
    } catch (caught) {
      setError({ title: `“${name}” was not ${destination.enabled ? 'disabled' : 'enabled'}`, error: caught });
    } finally {
      setBusy(null);
    }
  }

  return (
    <li className="destination" data-destination-id={id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>{name}</h3>
          <p className="check-badges">
            <Badge tone="neutral">{DESTINATION_TYPE_LABEL[destination.type]}</Badge>
            {destination.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="warning">Disabled</Badge>}
          </p>
        </div>
        {destination.disabled_reason ? (
          <p className="alert alert-warning">
            Vigil disabled it: {destination.disabled_reason}. Enable it again once the receiver accepts deliveries.
          </p>
        ) : null}
        <dl className="meta-grid destination-facts">
          <div>
            <dt>Sends to</dt>
            <dd className="url">{destinationTarget(destination)}</dd>
          </div>
          <div>
            <dt>Workspace events</dt>
            <dd>
              {destination.events.length
                ? destination.events.map((event) => EVENT_LABEL[event]).join(', ')
                : 'None: only what rules send'}
            </dd>
          </div>
          <div>
            <dt>Added</dt>
            <dd>{formatDateTime(destination.created_at)}</dd>
          </div>
        </dl>
        <div className="button-row">
          {canWrite ? (
            <>
              <button
                type="button"
                className="button button-small button-secondary"
                disabled={busy !== null}
                onClick={() => void test()}
              >
                {busy === 'test' ? 'Sending test…' : 'Send test'}
                <span className="visually-hidden"> to {name}</span>
              </button>
              <button
                type="button"
                className="button button-small button-secondary"
                disabled={busy !== null}
                onClick={() => void toggle()}
              >
                {busy === 'toggle' ? 'Saving…' : destination.enabled ? 'Disable' : 'Enable'}
                <span className="visually-hidden"> {name}</span>
              </button>
              {destination.type === 'webhook' ? (
                <button type="button" className="button button-small button-secondary" onClick={onRotate}>
                  Rotate secret<span className="visually-hidden"> of {name}</span>
                </button>
              ) : null}
            </>
          ) : null}
          <Link
            to={withQuery('/alerts/deliveries', { destination: id })}
            className="button button-small button-secondary"
          >
            Deliveries<span className="visually-hidden"> to {name}</span>
          </Link>
          {canWrite ? (
            <button type="button" className="button button-small button-danger-outline" onClick={onDelete}>
              Delete<span className="visually-hidden"> {name}</span>
            </button>
          ) : null}
        </div>
        {/* Always there, so the receiver's answer is announced when it arrives. */}
        <div role="status" className="destination-result">
          {result ? <TestResultView name={name} result={result} /> : null}
        </div>
        {error ? <ProblemAlert error={error.error} title={error.title} /> : null}
      </article>
    </li>
  );
}

function CreateDestinationForm({ onCreated }: { onCreated: (destination: AlertDestinationWithSecret) => void }) {
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
