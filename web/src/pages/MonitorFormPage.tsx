import { type FormEvent, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { SelectField, TextField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatInterval } from '../format';
import { useResource } from '../hooks/useResource';
import { Link, navigate } from '../router';
import type { CurrentUser, Monitor, MonitorMode, TrackedValueKind } from '../types';

const INTERVALS = [30, 60, 300, 900, 1800, 3600, 21600, 86400];
const KINDS: { value: TrackedValueKind; label: string }[] = [
  { value: 'price', label: 'Price' },
  { value: 'number', label: 'Number' },
  { value: 'text', label: 'Text' },
];

interface TrackedDraft {
  /** Stable across edits, so a removed row takes its inputs with it. */
  key: number;
  name: string;
  selector: string;
  kind: TrackedValueKind;
}

interface Draft {
  name: string;
  url: string;
  interval: number;
  regions: string;
  mode: MonitorMode;
  keyword: string;
  selector: string;
  tracked: TrackedDraft[];
}

function draftOf(monitor: Monitor | null): Draft {
  return {
    name: monitor?.name ?? '',
    url: monitor?.url ?? '',
    interval: monitor?.interval_seconds ?? 300,
    regions: monitor?.regions.join(', ') ?? '',
    mode: monitor?.mode ?? 'http',
    keyword: monitor?.keyword ?? '',
    selector: monitor?.selector ?? '',
    tracked: (monitor?.tracked_values ?? []).map((value, index) => ({ key: index, ...value })),
  };
}

const regionList = (text: string) =>
  text
    .split(',')
    .map((region) => region.trim())
    .filter(Boolean);

/** `/monitors/new` and `/monitors/:id/edit`. */
export function MonitorFormPage({ id, me }: { id: string | null; me: CurrentUser }) {
  const canWrite = me.workspace.role === 'admin' || me.workspace.role === 'member';
  const monitor = useResource(id ? `/monitors/${id}` : null, (signal) =>
    ok(api.GET('/monitors/{id}', { params: { path: { id: id ?? '' } }, signal })),
  );
  usePageTitle(id ? (monitor.data ? `Edit ${monitor.data.name}` : 'Edit monitor') : 'New monitor');

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/monitors">Monitors</Link>
          </li>
          {id && monitor.data ? (
            <li>
              <Link to={`/monitors/${id}`}>{monitor.data.name}</Link>
            </li>
          ) : null}
          <li>
            <span aria-current="page">{id ? 'Edit' : 'New monitor'}</span>
          </li>
        </ol>
      </nav>
      <div className="page-header">
        <div>
          <h1>{id ? `Edit ${monitor.data?.name ?? 'monitor'}` : 'New monitor'}</h1>
          <p className="lead">
            Vigil checks the page at each interval from every region you pick, and records a change when the watched
            text or a tracked value moves.
          </p>
        </div>
      </div>
      {!canWrite ? (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: viewers cannot create or change monitors. A member or admin can.
        </p>
      ) : id ? (
        <ResourceView resource={monitor} loadingText="Loading monitor…">
          {(loaded) => <MonitorForm key={loaded.id} monitor={loaded} />}
        </ResourceView>
      ) : (
        <MonitorForm monitor={null} />
      )}
    </>
  );
}

function MonitorForm({ monitor }: { monitor: Monitor | null }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(monitor));
  const [nextKey, setNextKey] = useState(draft.tracked.length);
  const [local, setLocal] = useState<Partial<Record<'name' | 'url', string>>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));
  const setTracked = (key: number, change: Partial<TrackedDraft>) =>
    set(
      'tracked',
      draft.tracked.map((item) => (item.key === key ? { ...item, ...change } : item)),
    );

  async function save() {
    const problems: typeof local = {};
    if (!draft.name.trim()) problems.name = 'Give the monitor a name, such as the page it watches.';
    if (!draft.url.trim())
      problems.url = 'Enter the address of the page to check, such as https://example.com/pricing.';
    setLocal(problems);
    setError(null);
    if (Object.keys(problems).length) return;
    setBusy(true);
    const tracked_values = draft.tracked.map(({ name, selector, kind }) => ({
      name: name.trim(),
      selector: selector.trim(),
      kind,
    }));
    const regions = regionList(draft.regions);
    try {
      let saved: Monitor;
      if (!monitor) {
        saved = await ok(
          api.POST('/monitors', {
            body: {
              name: draft.name.trim(),
              url: draft.url.trim(),
              mode: draft.mode,
              interval_seconds: draft.interval,
              ...(draft.keyword.trim() ? { keyword: draft.keyword.trim() } : {}),
              ...(draft.selector.trim() ? { selector: draft.selector.trim() } : {}),
              ...(regions.length ? { regions } : {}),
              tracked_values,
            },
          }),
        );
      } else {
        const path = { params: { path: { id: monitor.id } } };
        saved = await ok(
          api.PATCH('/monitors/{id}', {
            ...path,
            body: {
              name: draft.name.trim(),
              url: draft.url.trim(),
              mode: draft.mode,
              interval_seconds: draft.interval,
              keyword: draft.keyword.trim() || null,
              selector: draft.selector.trim() || null,
              tracked_values,
            },
          }),
        );
        if (regions.length && regions.join(',') !== monitor.regions.join(',')) {
          saved = await ok(api.PUT('/monitors/{id}/regions', { ...path, body: { regions } }));
        }
      }
      navigate(`/monitors/${saved.id}`);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void save();
  }

  // The API's message for exactly this field (a row's own fields are named `tracked_values[0].selector`).
  const apiField = (field: string) =>
    error instanceof ProblemError ? error.problem.errors?.find((item) => item.field === field)?.message : undefined;
  const intervals = INTERVALS.includes(draft.interval)
    ? INTERVALS
    : [...INTERVALS, draft.interval].sort((a, b) => a - b);
  const invalid = error instanceof ProblemError && error.code === 'validation_failed';

  return (
    <form className="card form monitor-form" onSubmit={submit} noValidate>
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
        optional={!monitor}
        spellCheck={false}
        hint="Where to check from, separated by commas (such as eu, us). Empty: the service's first region."
        value={draft.regions}
        onChange={(value) => set('regions', value)}
        error={apiField('regions')}
      />
      <fieldset className="field">
        <legend>Mode</legend>
        <ul className="scope-options">
          {(
            [
              ['http', 'HTTP', 'Fetches the page: fast and light.'],
              ['browser', 'Browser', 'Renders the page in Chromium and keeps screenshots of each change.'],
            ] as const
          ).map(([mode, label, grants]) => (
            <li key={mode} className="check">
              <input
                id={`monitor-mode-${mode}`}
                type="radio"
                name="monitor-mode"
                value={mode}
                checked={draft.mode === mode}
                onChange={() => set('mode', mode)}
                aria-describedby={`monitor-mode-${mode}-grants`}
              />
              <label htmlFor={`monitor-mode-${mode}`}>{label}</label>
              <span id={`monitor-mode-${mode}-grants`} className="scope-grants">
                {grants}
              </span>
            </li>
          ))}
        </ul>
        {apiField('mode') ? <p className="field-error">{apiField('mode')}</p> : null}
      </fieldset>
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
      <fieldset className="field tracked-values">
        <legend>Tracked values</legend>
        <p className="hint">A price or figure read on every check; a move is recorded as a change.</p>
        {draft.tracked.length === 0 ? <p className="muted small">No tracked values.</p> : null}
        <ol className="tracked-list">
          {draft.tracked.map((item, index) => {
            const n = index + 1;
            const prefix = `tracked-${item.key}`;
            return (
              <li key={item.key} className="tracked-row">
                <TextField
                  id={`${prefix}-name`}
                  label={`Name of value ${n}`}
                  required
                  maxLength={100}
                  value={item.name}
                  onChange={(value) => setTracked(item.key, { name: value })}
                  error={apiField(`tracked_values[${index}].name`)}
                />
                <TextField
                  id={`${prefix}-selector`}
                  label={`Selector of value ${n}`}
                  required
                  maxLength={500}
                  spellCheck={false}
                  value={item.selector}
                  onChange={(value) => setTracked(item.key, { selector: value })}
                  error={apiField(`tracked_values[${index}].selector`)}
                />
                <SelectField
                  id={`${prefix}-kind`}
                  label={`Kind of value ${n}`}
                  value={item.kind}
                  onChange={(value) => setTracked(item.key, { kind: value })}
                  options={KINDS}
                  error={apiField(`tracked_values[${index}].kind`)}
                />
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  onClick={() =>
                    set(
                      'tracked',
                      draft.tracked.filter((other) => other.key !== item.key),
                    )
                  }
                >
                  Remove value {n}
                </button>
              </li>
            );
          })}
        </ol>
        {apiField('tracked_values') ? <p className="field-error">{apiField('tracked_values')}</p> : null}
        <button
          type="button"
          className="button button-small button-secondary"
          onClick={() => {
            set('tracked', [...draft.tracked, { key: nextKey, name: '', selector: '', kind: 'price' }]);
            setNextKey(nextKey + 1);
          }}
        >
          Add a tracked value
        </button>
      </fieldset>
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : monitor ? 'Save changes' : 'Create monitor'}
        </button>
        <Link className="button button-secondary" to={monitor ? `/monitors/${monitor.id}` : '/monitors'}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
