import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { TextAreaField, TextField } from '../components/Field';
import { MonitorPicker } from '../components/MonitorPicker';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { type RadioOption, RadioField } from '../components/RadioField';
import { useSubmit } from '../components/useSubmit';
import type { CreateMaintenanceWindowRequest, MaintenanceMode, MaintenanceWindow, Monitor } from '../types';
import { MODES } from './MaintenanceBits';
import { browserTimeZone, isTimeZone, recurrenceOf, zonedToIso } from './maintenance-times';
import { type ScheduleDraft, ScheduleFields } from './ScheduleFields';

type Coverage = 'all' | 'chosen';
type Timing = 'now' | 'schedule';

const COVERAGE: RadioOption<Coverage>[] = [
  { value: 'chosen', label: 'Chosen monitors', hint: 'Only the monitors ticked below.' },
  { value: 'all', label: 'All monitors', hint: 'Every monitor of the workspace, those added later included.' },
];

const TIMING: RadioOption<Timing>[] = [
  { value: 'now', label: 'Start now', hint: 'Under way at once, for the duration below.' },
  { value: 'schedule', label: 'Schedule', hint: 'At a time to come, once or repeating.' },
];

/** The longest a window may last (openapi.yaml `duration_minutes`): a week. */
const MAX_MINUTES = 10_080;

type LocalProblems = { title?: string; monitors?: string; duration?: string; zone?: string; starts?: string };

/**
 * A new maintenance window: what it is called and tells status pages, what it does, which monitors it covers, and when
 * (now for some minutes, or from a time in a time zone, perhaps repeating). The API's errors show at their fields.
 */
export function CreateWindowForm({
  monitors,
  onCreated,
}: {
  monitors: readonly Monitor[];
  onCreated: (created: MaintenanceWindow) => void;
}) {
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [mode, setMode] = useState<MaintenanceMode>('mute_alerts');
  const [coverage, setCoverage] = useState<Coverage>('chosen');
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [timing, setTiming] = useState<Timing>('now');
  const [duration, setDuration] = useState('60');
  const [schedule, setSchedule] = useState<ScheduleDraft>(() => ({
    zone: browserTimeZone(),
    starts: '',
    repeat: 'none',
  }));
  const [local, setLocal] = useState<LocalProblems>({});
  const minutes = Number(duration);

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: LocalProblems = {};
      if (!title.trim()) problems.title = 'Give the window a title, such as “Database upgrade”.';
      if (coverage === 'chosen' && monitorIds.length === 0)
        problems.monitors = 'Tick at least one monitor, or choose all monitors.';
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES)
        problems.duration = `Enter whole minutes, from 1 to ${MAX_MINUTES} (a week).`;
      if (timing === 'schedule') {
        if (!isTimeZone(schedule.zone.trim())) problems.zone = 'Enter an IANA time zone, such as Europe/Berlin.';
        if (!schedule.starts) problems.starts = 'Enter when the window starts.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const body: CreateMaintenanceWindowRequest = {
        title: title.trim(),
        message: message.trim() || null,
        mode,
        all_monitors: coverage === 'all',
        monitor_ids: coverage === 'all' ? [] : monitorIds,
        duration_minutes: minutes,
      };
      if (timing === 'schedule') {
        const zone = schedule.zone.trim();
        body.starts_at = zonedToIso(schedule.starts, zone)!;
        body.recurrence = recurrenceOf(schedule.repeat, schedule.starts);
        body.timezone = zone;
      }
      const created = await ok(api.POST('/maintenance-windows', { body }));
      setTitle('');
      setMessage('');
      setMonitorIds([]);
      setSchedule((current) => ({ ...current, starts: '', repeat: 'none' }));
      onCreated(created);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const monitorsError = local.monitors ?? fieldError(error, 'monitor_ids', 'all_monitors');

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {invalid ? (
        <ProblemAlert error={error} title="The maintenance window was not created: correct the fields marked below" />
      ) : (
        <ProblemAlert error={error} title="The maintenance window was not created" />
      )}
      <TextField
        id="maintenance-title"
        label="Title"
        required
        maxLength={200}
        placeholder="e.g. Database upgrade"
        value={title}
        onChange={setTitle}
        error={local.title ?? fieldError(error, 'title')}
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
        name="maintenance-mode"
        value={mode}
        onChange={setMode}
        options={MODES}
        error={fieldError(error, 'mode')}
      />
      <RadioField
        legend="Covers"
        name="maintenance-coverage"
        value={coverage}
        onChange={setCoverage}
        options={COVERAGE}
        error={coverage === 'all' ? monitorsError : undefined}
      />
      {coverage === 'chosen' ? (
        <MonitorPicker
          id="maintenance-monitors"
          legend="Monitors"
          monitors={monitors}
          selected={monitorIds}
          onChange={setMonitorIds}
          error={monitorsError}
        />
      ) : null}
      <RadioField legend="When" name="maintenance-timing" value={timing} onChange={setTiming} options={TIMING} />
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
      {timing === 'schedule' ? (
        <ScheduleFields schedule={schedule} onChange={setSchedule} local={local} error={error} />
      ) : null}
      <button type="submit" className="button button-primary" disabled={busy}>
        {timing === 'now' ? (busy ? 'Starting…' : 'Start maintenance') : busy ? 'Scheduling…' : 'Schedule maintenance'}
      </button>
    </form>
  );
}
