import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { DESTINATION_TYPE_LABEL, destinationTarget } from '../components/AlertBits';
import { SelectField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import { plural } from '../format';
import { Link } from '../router';
import type { AlertDestination, AlertRule, Monitor, RuleEvent } from '../types';
import { confirmed, incident, RULE_EVENTS } from './rule-text';

/** A number field's value for the API: empty is left out, anything else goes as typed for the API to judge. */
const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text));

export function AddRuleForm({
  monitor,
  destinations,
  onAdded,
}: {
  monitor: Monitor;
  destinations: AlertDestination[];
  onAdded: (rule: AlertRule) => void;
}) {
  const [event, setEvent] = useState<RuleEvent>('down');
  const [chosen, setChosen] = useState<string[]>([]);
  const [failures, setFailures] = useState('1');
  const [regions, setRegions] = useState('1');
  const [threshold, setThreshold] = useState('');
  const [daysBefore, setDaysBefore] = useState('14');
  const [recovery, setRecovery] = useState(true);
  const [reminder, setReminder] = useState('');
  const [local, setLocal] = useState<{ destinations?: string; threshold?: string; daysBefore?: string }>({});
  const fires = incident(event);
  const confirms = confirmed(event);

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (chosen.length === 0) problems.destinations = 'Choose at least one destination to send the alerts to.';
      if (event === 'response_time' && !threshold.trim()) {
        problems.threshold = 'Enter how slow a check may be, in milliseconds, before it counts as slow.';
      }
      if (event === 'certificate_expiry' && !daysBefore.trim()) {
        problems.daysBefore = 'Enter how many days before its expiry a certificate should alert.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const ordered = destinations.map((destination) => destination.id).filter((id) => chosen.includes(id));
      // Empty means the API's default, 1.
      const confirm = {
        consecutive_failures: numberOrUndefined(failures) ?? 1,
        min_regions: numberOrUndefined(regions) ?? 1,
      };
      const rule = await ok(
        api.POST('/monitors/{id}/rules', {
          params: { path: { id: monitor.id } },
          body: {
            event,
            destination_ids: ordered,
            ...(fires ? { notify_recovery: recovery } : {}),
            ...(confirms ? { confirm } : {}),
            ...(event === 'response_time' ? { threshold_ms: numberOrUndefined(threshold) } : {}),
            ...(event === 'certificate_expiry' ? { days_before: numberOrUndefined(daysBefore) } : {}),
            ...(reminder.trim() && confirms ? { reminder_minutes: numberOrUndefined(reminder) } : {}),
          },
        }),
      );
      setChosen([]);
      onAdded(rule);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const destinationsError = local.destinations ?? fieldError(error, 'destination_ids');

  if (destinations.length === 0) {
    return (
      <div className="rule-add">
        <h3>Add a rule</h3>
        <p>
          This workspace has no alert destinations yet, so a rule would have nowhere to send.{' '}
          <Link to="/alerts">Add a destination</Link> first.
        </p>
      </div>
    );
  }

  return (
    <div className="rule-add">
      <h3 id="add-rule-heading">Add a rule</h3>
      <form className="form" aria-labelledby="add-rule-heading" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="The rule was not added: correct the fields marked below" />
        ) : (
          <ProblemAlert error={error} title="The rule was not added" />
        )}
        <SelectField
          id="rule-event"
          label="Alert when"
          value={event}
          onChange={setEvent}
          options={RULE_EVENTS}
          error={fieldError(error, 'event')}
        />
        <fieldset className="field" aria-describedby={destinationsError ? 'rule-destinations-error' : undefined}>
          <legend>Send to</legend>
          <ul className="scope-options">
            {destinations.map((destination) => {
              const id = `rule-destination-${destination.id}`;
              return (
                <li key={destination.id} className="check">
                  <input
                    id={id}
                    type="checkbox"
                    checked={chosen.includes(destination.id)}
                    onChange={(change) =>
                      setChosen((current) =>
                        change.target.checked
                          ? [...current, destination.id]
                          : current.filter((item) => item !== destination.id),
                      )
                    }
                    aria-describedby={`${id}-target`}
                  />
                  <label htmlFor={id}>
                    {destination.name}
                    {destination.enabled ? null : <span className="muted"> (disabled)</span>}
                  </label>
                  <span id={`${id}-target`} className="scope-grants url">
                    {DESTINATION_TYPE_LABEL[destination.type]}: {destinationTarget(destination)}
                  </span>
                </li>
              );
            })}
          </ul>
          {destinationsError ? (
            <p id="rule-destinations-error" className="field-error">
              {destinationsError}
            </p>
          ) : null}
        </fieldset>
        {event === 'response_time' ? (
          <TextField
            id="rule-threshold"
            type="number"
            label="Slower than (ms)"
            required
            min={1}
            max={120000}
            inputMode="numeric"
            hint="1 to 120000: a check that takes longer counts as slow."
            value={threshold}
            onChange={setThreshold}
            error={local.threshold ?? fieldError(error, 'threshold_ms')}
          />
        ) : null}
        {event === 'certificate_expiry' ? (
          <TextField
            id="rule-days-before"
            type="number"
            label="Days before expiry"
            required
            min={1}
            max={365}
            inputMode="numeric"
            hint="1 to 365: alerts once when an HTTPS check is served a certificate with this many days left or fewer."
            value={daysBefore}
            onChange={setDaysBefore}
            error={local.daysBefore ?? fieldError(error, 'days_before')}
          />
        ) : null}
        {confirms ? (
          <div className="rule-form-grid">
            <TextField
              id="rule-failures"
              type="number"
              label={event === 'down' ? 'Failed checks in a row' : 'Slow checks in a row'}
              min={1}
              max={20}
              inputMode="numeric"
              hint="1 to 20, before it alerts. Empty: 1."
              value={failures}
              onChange={setFailures}
              error={fieldError(error, 'confirm.consecutive_failures', 'confirm')}
            />
            <TextField
              id="rule-regions"
              type="number"
              label="In at least this many regions"
              min={1}
              max={20}
              inputMode="numeric"
              hint={`1 to 20. This monitor checks from ${plural(monitor.regions.length, 'region')}. Empty: 1.`}
              value={regions}
              onChange={setRegions}
              error={fieldError(error, 'confirm.min_regions')}
            />
            <TextField
              id="rule-reminder"
              type="number"
              label="Remind every (minutes)"
              optional
              min={5}
              max={10080}
              inputMode="numeric"
              hint="5 to 10080: repeats the alert while it fires. Empty: no reminders."
              value={reminder}
              onChange={setReminder}
              error={fieldError(error, 'reminder_minutes')}
            />
          </div>
        ) : null}
        {fires ? (
          <div className="check">
            <input
              id="rule-recovery"
              type="checkbox"
              checked={recovery}
              onChange={(change) => setRecovery(change.target.checked)}
            />
            <label htmlFor="rule-recovery">
              {event === 'certificate_expiry'
                ? 'Tell the same destinations when a renewed certificate is served'
                : 'Tell the same destinations when it recovers'}
            </label>
          </div>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add rule'}
        </button>
      </form>
    </div>
  );
}
