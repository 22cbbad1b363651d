import { type FormEvent, useState } from 'react';
import { ProblemError } from '../api';
import { DriftNotice, useDriftConfirm } from '../components/DriftWarning';
import { SelectField, TextField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import { type RadioOption, RadioField } from '../components/RadioField';
import { formatInterval } from '../format';
import { Link, navigate } from '../router';
import type { Monitor, MonitorMode } from '../types';
import { type Draft, draftOf, saveMonitor } from './monitor-draft';
import { AssertionFields } from './AssertionFields';
import { DependsOnField } from './DependsOnField';
import { HeartbeatFields } from './HeartbeatFields';
import { TrackedValueFields } from './TrackedValueFields';

const INTERVALS = [30, 60, 300, 900, 1800, 3600, 21600, 86400];

const MODES: RadioOption<MonitorMode>[] = [
  { value: 'http', label: 'HTTP', hint: 'Fetches the page: fast and light.' },
  { value: 'browser', label: 'Browser', hint: 'Renders the page in Chromium and keeps screenshots of each change.' },
  {
    value: 'heartbeat',
    label: 'Heartbeat',
    hint: 'Checks nothing: a job pings Vigil on a schedule; late or failed pings make it down.',
  },
];

/**
 * The form of a new monitor (`monitor` null) or of one to edit; once saved, the monitor's page opens. Saving a monitor
 * a declaration manages asks first: the change is drift.
 */
export function MonitorForm({ monitor }: { monitor: Monitor | null }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(monitor));
  const [local, setLocal] = useState<Partial<Record<'name' | 'url', string>>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const drift = useDriftConfirm();
  const managed = { noun: 'monitor', declarationKey: monitor?.declaration_key ?? null };
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));

  const heartbeat = draft.mode === 'heartbeat';

  function check(): boolean {
    const problems: typeof local = {};
    if (!draft.name.trim()) problems.name = 'Give the monitor a name, such as the page it watches.';
    if (!heartbeat && !draft.url.trim())
      problems.url = 'Enter the address of the page to check, such as https://example.com/pricing.';
    setLocal(problems);
    setError(null);
    return Object.keys(problems).length === 0;
  }

  async function save() {
    setBusy(true);
    try {
      const saved = await saveMonitor(monitor, draft);
      navigate(`/monitors/${saved.id}`);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!check()) return;
    drift.confirm(
      managed,
      { title: `Save changes to “${monitor?.name ?? ''}” by hand?`, confirmLabel: 'Save anyway' },
      () => void save(),
    );
  }

  // The API's message for exactly this field (a row's own fields are named `tracked_values[0].selector`).
  const apiField = (field: string) =>
    error instanceof ProblemError ? error.problem.errors?.find((item) => item.field === field)?.message : undefined;
  const invalid = error instanceof ProblemError && error.code === 'validation_failed';
  // A monitor cannot become or stop being a heartbeat monitor: its history would mean something else.
  const modes = MODES.filter(({ value }) => !monitor || (value === 'heartbeat') === (monitor.mode === 'heartbeat'));

  return (
    <form className="card form monitor-form" onSubmit={submit} noValidate>
      <DriftNotice resource={managed} />
      {invalid ? (
        <ProblemAlert error={error} title="The monitor was not saved: correct the fields marked below" />
      ) : (
        <ProblemAlert error={error} />
      )}
      <TextField
        id="monitor-name"
        label="Name"
        required
        maxLength={200}
        value={draft.name}
        onChange={(value) => set('name', value)}
        error={local.name ?? apiField('name')}
      />
      <RadioField
        legend="Mode"
        name="monitor-mode"
        value={draft.mode}
        onChange={(mode) => set('mode', mode)}
        options={modes}
        error={apiField('mode')}
      />
      {heartbeat ? (
        <HeartbeatFields
          heartbeat={draft.heartbeat}
          onChange={(value) => set('heartbeat', value)}
          apiField={apiField}
        />
      ) : (
        <PageFields draft={draft} set={set} local={local} apiField={apiField} isNew={!monitor} />
      )}
      <DependsOnField
        monitorId={monitor?.id ?? null}
        value={draft.parentId}
        onChange={(parentId) => set('parentId', parentId)}
        error={apiField('parent_id')}
      />
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : monitor ? 'Save changes' : 'Create monitor'}
        </button>
        <Link className="button button-secondary" to={monitor ? `/monitors/${monitor.id}` : '/monitors'}>
          Cancel
        </Link>
      </div>
      {drift.dialog}
    </form>
  );
}

/** What a monitor with a page is told: its address, schedule, regions and what a check looks for. */
function PageFields({
  draft,
  set,
  local,
  apiField,
  isNew,
}: {
  draft: Draft;
  set: <K extends keyof Draft>(field: K, value: Draft[K]) => void;
  local: Partial<Record<'name' | 'url', string>>;
  apiField: (field: string) => string | undefined;
  isNew: boolean;
}) {
  const intervals = INTERVALS.includes(draft.interval)
    ? INTERVALS
    : [...INTERVALS, draft.interval].sort((a, b) => a - b);
  return (
    <>
      <TextField
        id="monitor-url"
        type="url"
        label="URL"
        required
        maxLength={2048}
        inputMode="url"
        spellCheck={false}
        placeholder="https://example.com/pricing"
        hint="A public http(s) address."
        value={draft.url}
        onChange={(value) => set('url', value)}
        error={local.url ?? apiField('url')}
      />
      <SelectField
        id="monitor-interval"
        label="Check every"
        value={String(draft.interval)}
        onChange={(value) => set('interval', Number(value))}
        options={intervals.map((seconds) => ({ value: String(seconds), label: formatInterval(seconds) }))}
        error={apiField('interval_seconds')}
      />
      <TextField
        id="monitor-regions"
        label="Regions"
        optional={isNew}
        spellCheck={false}
        hint="Where to check from, separated by commas (such as eu, us). Empty: the service's first region."
        value={draft.regions}
        onChange={(value) => set('regions', value)}
        error={apiField('regions')}
      />
      <TextField
        id="monitor-keyword"
        label="Keyword"
        optional
        maxLength={500}
        hint="Text that must appear on the page (within the selector, when set) for a check to pass."
        value={draft.keyword}
        onChange={(value) => set('keyword', value)}
        error={apiField('keyword')}
      />
      <TextField
        id="monitor-selector"
        label="Selector"
        optional
        maxLength={500}
        spellCheck={false}
        placeholder="main"
        hint="A CSS selector for the part of the page to watch; a check fails when nothing matches."
        value={draft.selector}
        onChange={(value) => set('selector', value)}
        error={apiField('selector')}
      />
      <TrackedValueFields tracked={draft.tracked} onChange={(tracked) => set('tracked', tracked)} apiField={apiField} />
      {draft.mode === 'http' ? (
        <AssertionFields
          assertions={draft.assertions}
          onChange={(assertions) => set('assertions', assertions)}
          apiField={apiField}
        />
      ) : null}
    </>
  );
}
