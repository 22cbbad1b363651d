import { SelectField, TextField } from '../components/Field';
import { type RadioOption, RadioField } from '../components/RadioField';
import { formatInterval } from '../format';
import type { HeartbeatDraft } from './monitor-draft';

const INTERVALS = [60, 300, 900, 3600, 21600, 43200, 86400, 604800];

const KINDS: RadioOption<HeartbeatDraft['kind']>[] = [
  { value: 'interval', label: 'At an interval', hint: 'Every so often after the last ping: for workers and loops.' },
  { value: 'cron', label: 'On a cron schedule', hint: 'At the times of the job’s crontab line, in its time zone.' },
];

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
      <RadioField
        legend="Expect a ping"
        name="heartbeat-kind"
        value={heartbeat.kind}
        onChange={(kind) => set('kind', kind)}
        options={KINDS}
        error={apiField('schedule')}
      />
      {heartbeat.kind === 'interval' ? (
        <SelectField
          id="heartbeat-interval"
          label="Every"
          value={String(heartbeat.interval)}
          onChange={(value) => set('interval', Number(value))}
          options={intervals.map((seconds) => ({ value: String(seconds), label: formatInterval(seconds) }))}
          error={apiField('schedule.interval_seconds')}
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
            error={apiField('schedule.cron')}
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
            error={apiField('schedule.timezone')}
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
        error={apiField('grace_seconds')}
      />
    </>
  );
}
