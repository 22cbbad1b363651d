import { SelectField, TextField } from '../components/Field';
import { fieldError } from '../components/ProblemAlert';
import { knownTimeZones, type RepeatPreset, repeatOptions } from './maintenance-times';

/** When a scheduled window starts and how it repeats, as the form holds it. */
export interface ScheduleDraft {
  /** An IANA time zone: where `starts` is meant, and whose wall-clock time a recurring window keeps. */
  zone: string;
  /** A `datetime-local` value, in `zone`. */
  starts: string;
  repeat: RepeatPreset;
}

/** The time zone, start and repetition of a scheduled window, with the form's and the API's errors at each. */
export function ScheduleFields({
  schedule,
  onChange,
  local,
  error,
}: {
  schedule: ScheduleDraft;
  onChange: (schedule: ScheduleDraft) => void;
  local: { zone?: string; starts?: string };
  error: unknown;
}) {
  const set = <K extends keyof ScheduleDraft>(field: K, value: ScheduleDraft[K]) =>
    onChange({ ...schedule, [field]: value });
  const zone = schedule.zone.trim() || 'UTC';
  return (
    <>
      <TextField
        id="maintenance-timezone"
        label="Time zone"
        required
        maxLength={64}
        spellCheck={false}
        autoCapitalize="none"
        list="maintenance-timezones"
        placeholder="Europe/Berlin"
        hint="An IANA name; yours to begin with. A repeating window keeps its wall-clock time here, across daylight-saving changes."
        value={schedule.zone}
        onChange={(value) => set('zone', value)}
        error={local.zone ?? fieldError(error, 'timezone')}
      />
      <datalist id="maintenance-timezones">
        {knownTimeZones().map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <TextField
        id="maintenance-starts"
        type="datetime-local"
        label="Starts at"
        required
        hint={`The wall-clock time in ${zone}.`}
        value={schedule.starts}
        onChange={(value) => set('starts', value)}
        error={local.starts ?? fieldError(error, 'starts_at')}
      />
      <SelectField
        id="maintenance-repeat"
        label="Repeats"
        value={schedule.repeat}
        onChange={(value) => set('repeat', value)}
        options={repeatOptions(schedule.starts)}
        hint="Each time for the same duration, at the start’s time of day."
        error={fieldError(error, 'rrule')}
      />
    </>
  );
}
