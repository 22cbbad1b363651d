import { useId, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { formatInterval, plural } from '../format';
import { useResource } from '../hooks/useResource';
import { Link } from '../router';
import type { AlertDestination, AlertRule, CurrentUser, Monitor, RuleEvent, RuleState } from '../types';
import { allDestinations, canWriteIn, DESTINATION_TYPE_LABEL, destinationTarget } from './AlertBits';
import { Badge } from './Badge';
import { SelectField, TextField } from './Field';
import { fieldError, ProblemAlert } from './ProblemAlert';
import { PagedList, ResourceView } from './ResourceView';
import { useSubmit } from './useSubmit';
import { ConfirmDialog } from './ConfirmDialog';

const RULE_EVENTS: { value: RuleEvent; label: string }[] = [
  { value: 'down', label: 'The monitor is down' },
  { value: 'response_time', label: 'Responses are slow' },
  { value: 'change', label: 'A change is detected' },
  { value: 'value_change', label: 'A tracked value changes' },
];

const RULE_TITLE: Record<RuleEvent, string> = {
  down: 'Down',
  response_time: 'Slow responses',
  change: 'Changes',
  value_change: 'Tracked value changes',
};

const STATE: Record<RuleState, { label: string; tone: string }> = {
  ok: { label: 'OK', tone: 'success' },
  pending: { label: 'Pending: failing, not yet confirmed', tone: 'warning' },
  firing: { label: 'Firing: alerted, not yet recovered', tone: 'danger' },
};

/** Rules that fire and recover (the others send each change as it comes). */
const incident = (event: RuleEvent) => event === 'down' || event === 'response_time';

/** What a rule does, in a sentence or two. */
function ruleSentence(rule: AlertRule): string {
  const { consecutive_failures: failures, min_regions: regions } = rule.confirm;
  const where = `in at least ${plural(regions, 'region')}`;
  const parts: string[] = [];
  switch (rule.event) {
    case 'down':
      parts.push(`Alerts when ${failures === 1 ? 'a check fails' : `${failures} checks in a row fail`} ${where}.`);
      break;
    case 'response_time': {
      const slow = `slower than ${rule.threshold_ms ?? '?'} ms`;
      parts.push(
        `Alerts when ${failures === 1 ? `a check is ${slow}` : `${failures} checks in a row are ${slow}`} ${where}.`,
      );
      break;
    }
    case 'change':
      parts.push('Sends each change detected on the page.');
      break;
    case 'value_change':
      parts.push('Sends each change of a tracked value.');
      break;
  }
  if (incident(rule.event)) {
    parts.push(rule.notify_recovery ? 'Tells the same destinations when it recovers.' : 'Says nothing on recovery.');
  }
  if (rule.reminder_minutes) parts.push(`Reminds every ${formatInterval(rule.reminder_minutes * 60)} while firing.`);
  return parts.join(' ');
}

/** A monitor's alert rules, on its page: what each sends where, its state, enable or disable, and a form to add one. */
export function AlertRules({ monitor, me }: { monitor: Monitor; me: CurrentUser }) {
  const canWrite = canWriteIn(me);
  const id = monitor.id;
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  // A rule's state moves with checks: read again after each.
  const rules = useResource(`/monitors/${id}/rules?page=${page}#${monitor.last_checked_at ?? ''}`, (signal) =>
    ok(api.GET('/monitors/{id}/rules', { params: { path: { id }, query: { page, per_page: 20 } }, signal })),
  );
  const destinations = useResource('/alert-destinations?all', allDestinations);
  const named = new Map((destinations.data ?? []).map((destination) => [destination.id, destination]));

  return (
    <section aria-labelledby="rules-heading" className="card alert-rules">
      <h2 id="rules-heading">Alert rules</h2>
      <p className="small muted">
        Each rule sends this monitor’s alerts to the destinations it names. Destinations are managed under{' '}
        <Link to="/alerts">Alerts</Link>; what was sent is in the <Link to="/alerts/deliveries">delivery log</Link>.
      </p>
      {canWrite ? null : (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: you can read this monitor’s alert rules, but only a member or admin
          can add, enable, disable or delete them.
        </p>
      )}
      <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
      <ProblemAlert error={destinations.error} title="The destinations could not be loaded" />
      <PagedList
        resource={rules}
        loadingText="Loading alert rules…"
        pagesLabel="Alert rule pages"
        onPage={setPage}
        empty={<p className="muted">No alert rules: nobody is told when this monitor goes down or changes.</p>}
      >
        {(list) => (
          <ul className="rule-list">
            {list.map((rule) => (
              <RuleItem
                key={rule.id}
                rule={rule}
                named={named}
                canWrite={canWrite}
                onChanged={(updated, note) => {
                  rules.mutate((current) => ({
                    ...current,
                    data: current.data.map((item) => (item.id === updated.id ? updated : item)),
                  }));
                  setMessage(note);
                }}
                onDeleted={(note) => {
                  setMessage(note);
                  rules.reload();
                }}
              />
            ))}
          </ul>
        )}
      </PagedList>
      {canWrite ? (
        <ResourceView resource={destinations} loadingText="Loading destinations…">
          {(choices) => (
            <AddRuleForm
              monitor={monitor}
              destinations={choices}
              onAdded={(rule) => {
                setMessage(`Added a rule: ${ruleSentence(rule)}`);
                rules.reload();
              }}
            />
          )}
        </ResourceView>
      ) : null}
    </section>
  );
}

function RuleItem({
  rule,
  named,
  canWrite,
  onChanged,
  onDeleted,
}: {
  rule: AlertRule;
  named: Map<string, AlertDestination>;
  canWrite: boolean;
  onChanged: (rule: AlertRule, note: string) => void;
  onDeleted: (note: string) => void;
}) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const title = RULE_TITLE[rule.event];

  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      const updated = await ok(
        api.PATCH('/monitors/{id}/rules/{rule_id}', {
          params: { path: { id: rule.monitor_id, rule_id: rule.id } },
          body: { enabled: !rule.enabled },
        }),
      );
      onChanged(
        updated,
        updated.enabled
          ? `Enabled the “${title}” rule: it sends alerts again.`
          : `Disabled the “${title}” rule: it sends nothing until it is enabled again.`,
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="rule" data-rule-id={rule.id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>{title}</h3>
          <p className="check-badges">
            {rule.enabled ? (
              incident(rule.event) ? (
                <Badge tone={STATE[rule.state].tone}>
                  <span className="visually-hidden">State: </span>
                  {STATE[rule.state].label}
                </Badge>
              ) : (
                <Badge tone="success">Enabled</Badge>
              )
            ) : (
              <Badge tone="neutral">Disabled</Badge>
            )}
          </p>
        </div>
        <p>{ruleSentence(rule)}</p>
        <p className="small">
          Sends to:{' '}
          {rule.destination_ids
            .map((destinationId) => named.get(destinationId)?.name ?? 'a destination no longer listed')
            .join(', ')}
        </p>
        {canWrite ? (
          <button
            type="button"
            className="button button-small button-secondary"
            disabled={busy}
            onClick={() => void toggle()}
          >
            {busy ? 'Saving…' : rule.enabled ? 'Disable' : 'Enable'}
            <span className="visually-hidden"> the “{title}” rule</span>
          </button>
        ) : null}
        {canWrite ? (
          <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(true)}>
            Delete<span className="visually-hidden"> the “{title}” rule</span>
          </button>
        ) : null}
        {deleting ? (
          <ConfirmDialog
            title={`Delete the “${title}” rule?`}
            confirmLabel="Delete rule"
            busyLabel="Deleting…"
            onConfirm={async () => {
              await ok(
                api.DELETE('/monitors/{id}/rules/{rule_id}', {
                  params: { path: { id: rule.monitor_id, rule_id: rule.id } },
                }),
              );
              setDeleting(false);
              onDeleted(`Deleted the “${title}” rule. What it sent stays in the delivery log.`);
            }}
            onClose={() => setDeleting(false)}
          >
            <p>It stops at once, and a firing alert sends no recovery. To pause it instead, disable it.</p>
          </ConfirmDialog>
        ) : null}
        <ProblemAlert error={error} title={`The “${title}” rule was not ${rule.enabled ? 'disabled' : 'enabled'}`} />
      </article>
    </li>
  );
}

/** A number field's value for the API: empty is left out, anything else goes as typed for the API to judge. */
const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text));

function AddRuleForm({
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
  const [recovery, setRecovery] = useState(true);
  const [reminder, setReminder] = useState('');
  const [local, setLocal] = useState<{ destinations?: string; threshold?: string }>({});
  const fires = incident(event);

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (chosen.length === 0) problems.destinations = 'Choose at least one destination to send the alerts to.';
      if (event === 'response_time' && !threshold.trim()) {
        problems.threshold = 'Enter how slow a check may be, in milliseconds, before it counts as slow.';
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
            ...(fires ? { confirm, notify_recovery: recovery } : {}),
            ...(event === 'response_time' ? { threshold_ms: numberOrUndefined(threshold) } : {}),
            ...(reminder.trim() && fires ? { reminder_minutes: numberOrUndefined(reminder) } : {}),
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
        {fires ? (
          <>
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
            <div className="check">
              <input
                id="rule-recovery"
                type="checkbox"
                checked={recovery}
                onChange={(change) => setRecovery(change.target.checked)}
              />
              <label htmlFor="rule-recovery">Tell the same destinations when it recovers</label>
            </div>
          </>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add rule'}
        </button>
      </form>
    </div>
  );
}
