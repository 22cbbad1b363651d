import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { TextAreaField, TextField } from '../components/Field';
import { MonitorPicker } from '../components/MonitorPicker';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { type RadioOption, RadioField } from '../components/RadioField';
import { useSubmit } from '../components/useSubmit';
import type { CreateMaintenanceWindowRequest, MaintenanceEffect, MaintenanceWindow, Monitor } from '../types';
import { EFFECTS } from './MaintenanceBits';
import { browserTimeZone, isTimeZone, recurrenceOf, zonedToIso } from './maintenance-times';
import { type ScheduleDraft, ScheduleFields } from './ScheduleFields';

type Timing = 'now' | 'schedule';
/** How the window's end is said: a number of minutes (`duration_minutes`), or a time on the clock (`ends_at`). */
type Length = 'duration' | 'until';

const TIMING: RadioOption<Timing>[] = [
  { value: 'now', label: 'Start now', hint: 'Under way at once.' },
  { value: 'schedule', label: 'Schedule', hint: 'At a time to come, once or repeating.' },
];

const LENGTH: RadioOption<Length>[] = [
  { value: 'duration', label: 'For a duration', hint: 'A number of minutes (each time, when it repeats).' },
  {
    value: 'until',
    label: 'Until a time',
    hint: 'An end on the clock (of the first time, when it repeats; each lasts as long).',
  },
];

/** The longest a window may last (openapi.yaml `duration_minutes`, and `ends_at` after `starts_at`): a week. */
const MAX_MINUTES = 10_080;

type LocalProblems = { name?: string; duration?: string; ends?: string; zone?: string; starts?: string };

/** What the monitor picker says about the choice: none ticked is every monitor, now and to come. */
function coverageHint(ticked: number): string {
  if (ticked === 0) return 'None ticked: the window covers every monitor of the workspace, those added later included.';
  return ticked === 1
    ? 'Only the ticked monitor; untick it to cover every monitor.'
    : `Only the ${ticked} ticked monitors; untick them all to cover every monitor.`;
}

/**
 * A new maintenance window: what it is called and tells status pages, what it does, which monitors it covers (none
 * ticked: all of them), when it starts (now, or from a time in a time zone, perhaps repeating) and how long it lasts
 * (minutes, or until a time). The API's errors show at their fields.
 */
export function CreateWindowForm({
  monitors,
  onCreated,
}: {
  monitors: readonly Monitor[];
  onCreated: (created: MaintenanceWindow) => void;
}) {
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const [effect, setEffect] = useState<MaintenanceEffect>('mute_alerts');
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [timing, setTiming] = useState<Timing>('now');
  const [length, setLength] = useState<Length>('duration');
  const [duration, setDuration] = useState('60');
  const [ends, setEnds] = useState('');
  const [schedule, setSchedule] = useState<ScheduleDraft>(() => ({
    zone: browserTimeZone(),
    starts: '',
    repeat: 'none',
  }));
  const [local, setLocal] = useState<LocalProblems>({});
  const minutes = Number(duration);
  // Where the wall-clock times typed are meant: the schedule's time zone, or the browser's for a window started now.
  const zone = timing === 'schedule' ? schedule.zone.trim() : browserTimeZone();

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: LocalProblems = {};
      if (!name.trim()) problems.name = 'Give the window a name, such as “Database upgrade”.';
      if (timing === 'schedule') {
        if (!isTimeZone(zone)) problems.zone = 'Enter an IANA time zone, such as Europe/Berlin.';
        if (!schedule.starts) problems.starts = 'Enter when the window starts.';
      }
      if (length === 'duration' && (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES))
        problems.duration = `Enter whole minutes, from 1 to ${MAX_MINUTES} (a week).`;
      // Compared with the start only when both can be read (a bad time zone or start has its own message).
      const end = ends && isTimeZone(zone) ? zonedToIso(ends, zone) : null;
      const start = timing === 'schedule' ? zonedToIso(schedule.starts, zone) : new Date().toISOString();
      if (length === 'until' && !ends) problems.ends = 'Enter when the window ends.';
      else if (length === 'until' && end && start) {
        const span = Date.parse(end) - Date.parse(start);
        if (span <= 0) problems.ends = timing === 'schedule' ? 'End after the start.' : 'Enter a time to come.';
        else if (span > MAX_MINUTES * 60_000) problems.ends = 'End at most a week (10080 minutes) after the start.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const body: CreateMaintenanceWindowRequest = {
        name: name.trim(),
        message: message.trim() || null,
        effect,
        // None ticked: every monitor of the workspace.
        monitor_ids: monitorIds,
      };
      if (length === 'duration') body.duration_minutes = minutes;
      else body.ends_at = zonedToIso(ends, zone)!;
      if (timing === 'schedule') {
        body.starts_at = zonedToIso(schedule.starts, zone)!;
        body.rrule = recurrenceOf(schedule.repeat, schedule.starts);
        body.timezone = zone;
      }
      const created = await ok(api.POST('/maintenance-windows', { body }));
      setName('');
      setMessage('');
      setMonitorIds([]);
      setEnds('');
      setSchedule((current) => ({ ...current, starts: '', repeat: 'none' }));
      onCreated(created);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {invalid ? (
        <ProblemAlert error={error} title="The maintenance window was not created: correct the fields marked below" />
      ) : (
        <ProblemAlert error={error} title="The maintenance window was not created" />
      )}
      <TextField
        id="maintenance-name"
        label="Name"
        required
        maxLength={200}
        placeholder="e.g. Database upgrade"
        value={name}
        onChange={setName}
        error={local.name ?? fieldError(error, 'name')}
      />
      <TextAreaField
        id="maintenance-message"
        label="Message"
        optional
        rows={2}
        maxLength={2000}
        hint="Shown on status pages beside the components it covers."
        value={message}
        onChange={setMessage}
        error={fieldError(error, 'message')}
      />
      <RadioField
        legend="During the window"
        name="maintenance-effect"
        value={effect}
        onChange={setEffect}
        options={EFFECTS}
        error={fieldError(error, 'effect')}
      />
      <MonitorPicker
        id="maintenance-monitors"
        legend="Monitors"
        hint={coverageHint(monitorIds.length)}
        monitors={monitors}
        selected={monitorIds}
        onChange={setMonitorIds}
        error={fieldError(error, 'monitor_ids')}
      />
      <RadioField legend="When" name="maintenance-timing" value={timing} onChange={setTiming} options={TIMING} />
      {timing === 'schedule' ? (
        <ScheduleFields schedule={schedule} onChange={setSchedule} local={local} error={error} />
      ) : null}
      <RadioField legend="How long" name="maintenance-length" value={length} onChange={setLength} options={LENGTH} />
      {length === 'duration' ? (
        <TextField
          id="maintenance-duration"
          type="number"
          label="Duration (minutes)"
          required
          min={1}
          max={MAX_MINUTES}
          step={1}
          inputMode="numeric"
          hint={timing === 'schedule' ? 'How long each occurrence lasts.' : 'How long from now.'}
          value={duration}
          onChange={setDuration}
          error={local.duration ?? fieldError(error, 'duration_minutes')}
        />
      ) : (
        <TextField
          id="maintenance-ends"
          type="datetime-local"
          label="Ends at"
          required
          hint={`The wall-clock time in ${zone || 'UTC'}, at most a week after the start.`}
          value={ends}
          onChange={setEnds}
          error={local.ends ?? fieldError(error, 'ends_at')}
        />
      )}
      <button type="submit" className="button button-primary" disabled={busy}>
        {timing === 'now' ? (busy ? 'Starting…' : 'Start maintenance') : busy ? 'Scheduling…' : 'Schedule maintenance'}
      </button>
    </form>
  );
}
