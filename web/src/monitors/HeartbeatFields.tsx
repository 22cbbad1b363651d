import { SelectField, TextField } from '../components/Field';
import { formatInterval } from '../format';
import type { HeartbeatDraft } from './monitor-draft';

const INTERVALS = [60, 300, 900, 3600, 21600, 43200, 86400, 604800];

/** When a heartbeat monitor expects its pings: an interval, or a cron expression in a time zone; and the grace. */
export function HeartbeatFields({
  heartbeat,
  onChange,
  apiField,
}: {
  heartbeat: HeartbeatDraft;
  onChange: (heartbeat: HeartbeatDraft) => void;
  apiField: (field: string) => string | undefined;
}) {
  const set = <K extends keyof HeartbeatDraft>(field: K, value: HeartbeatDraft[K]) =>
    onChange({ ...heartbeat, [field]: value });
  const intervals = INTERVALS.includes(heartbeat.interval)
    ? INTERVALS
    : [...INTERVALS, heartbeat.interval].sort((a, b) => a - b);
  return (
    <>
      <fieldset className="field">
        <legend>Expect a ping</legend>
        <ul className="scope-options">
          {(
            [
              ['interval', 'At an interval', 'Every so often after the last ping: for workers and loops.'],
              ['cron', 'On a cron schedule', 'At the times of the job’s crontab line, in its time zone.'],
            ] as const
          ).map(([kind, label, grants]) => (
            <li key={kind} className="check">
              <input
                id={`heartbeat-kind-${kind}`}
                type="radio"
                name="heartbeat-kind"
                checked={heartbeat.kind === kind}
                onChange={() => set('kind', kind)}
                aria-describedby={`heartbeat-kind-${kind}-grants`}
              />
              <label htmlFor={`heartbeat-kind-${kind}`}>{label}</label>
              <span id={`heartbeat-kind-${kind}-grants`} className="scope-grants">
                {grants}
              </span>
            </li>
          ))}
        </ul>
        {apiField('heartbeat') ? <p className="field-error">{apiField('heartbeat')}</p> : null}
      </fieldset>
      {heartbeat.kind === 'interval' ? (
        <SelectField
          id="heartbeat-interval"
          label="Every"
          value={String(heartbeat.interval)}
          onChange={(value) => set('interval', Number(value))}
          options={intervals.map((seconds) => ({ value: String(seconds), label: formatInterval(seconds) }))}
          error={apiField('heartbeat.interval_seconds')}
        />
      ) : (
        <div className="rule-form-grid">
          <TextField
            id="heartbeat-cron"
            label="Cron expression"
            required
            maxLength={100}
            spellCheck={false}
            placeholder="0 3 * * *"
            hint="Five fields (minute hour day month weekday), or six with seconds first."
            value={heartbeat.cron}
            onChange={(value) => set('cron', value)}
            error={apiField('heartbeat.cron')}
          />
          <TextField
            id="heartbeat-timezone"
            label="Time zone"
            maxLength={64}
            spellCheck={false}
            placeholder="Europe/Paris"
            hint="An IANA name. Empty: UTC."
            value={heartbeat.timezone}
            onChange={(value) => set('timezone', value)}
            error={apiField('heartbeat.timezone')}
          />
        </div>
      )}
      <TextField
        id="heartbeat-grace"
        type="number"
        label="Grace (seconds)"
        min={0}
        max={86400}
        inputMode="numeric"
        hint="How late a ping may be before the monitor is down. 0 to 86400; empty: 300."
        value={heartbeat.grace}
        onChange={(value) => set('grace', value)}
        error={apiField('heartbeat.grace_seconds')}
      />
    </>
  );
}
