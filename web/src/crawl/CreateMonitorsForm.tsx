import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import { formatInterval, plural } from '../format';
import { Link } from '../router';
import type { CreatedMonitorsFromCrawl } from '../types';

export function CreateMonitorsForm({
  crawlId,
  selected,
  onClear,
  result,
  onCreated,
}: {
  crawlId: string;
  selected: ReadonlySet<string>;
  onClear: () => void;
  result: CreatedMonitorsFromCrawl | null;
  onCreated: (created: CreatedMonitorsFromCrawl) => void;
}) {
  const [interval, setIntervalText] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problem = selected.size ? null : 'Select at least one page first.';
      setLocal(problem);
      return problem === null;
    },
    send: async () => {
      const created = await ok(
        api.POST('/crawl/{id}/create-monitors', {
          params: { path: { id: crawlId } },
          body: {
            urls: [...selected],
            ...(interval.trim() ? { monitor: { interval_seconds: Number(interval) } } : {}),
          },
        }),
      );
      onCreated(created);
    },
  });
  const invalid = error instanceof ProblemError && error.code === 'validation_failed';

  return (
    <div className="crawl-create">
      <h3 id="create-monitors-heading">Create monitors</h3>
      <CreatedResult result={result} />
      <form className="form" aria-labelledby="create-monitors-heading" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="No monitors were created: correct what is marked" />
        ) : (
          <ProblemAlert error={error} title="No monitors were created" />
        )}
        <p className="selection-count" aria-live="polite">
          <strong>{plural(selected.size, 'page')} selected</strong>
          {selected.size ? ' (on any page of the table)' : ''}
          {local ? (
            <span className="block field-error" id="create-monitors-selection-error">
              {local}
            </span>
          ) : null}
        </p>
        <TextField
          id="monitor-interval"
          type="number"
          label="Check every (seconds)"
          optional
          min={30}
          max={86400}
          inputMode="numeric"
          hint={`30 to 86400. Empty: every ${formatInterval(300)}, the monitors’ default. Each monitor is named after its page’s title.`}
          value={interval}
          onChange={setIntervalText}
          error={fieldError(error, 'monitor.interval_seconds', 'monitor')}
        />
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create monitors'}
          </button>
          {selected.size ? (
            <button type="button" className="button button-secondary" onClick={onClear}>
              Clear selection
            </button>
          ) : null}
        </div>
      </form>
    </div>
  );
}

function CreatedResult({ result }: { result: CreatedMonitorsFromCrawl | null }) {
  // The region is always there, so what appears in it is announced.
  return (
    <div role="status" className="crawl-result">
      {result ? (
        <div className={`alert ${result.created.length ? 'alert-success' : 'alert-warning'}`}>
          <p className="alert-title">
            {result.created.length ? `Created ${plural(result.created.length, 'monitor')}` : 'No monitors were created'}
            {result.skipped.length ? `; skipped ${plural(result.skipped.length, 'page')} already monitored` : ''}.
          </p>
          {result.created.length ? (
            <ul className="created-list">
              {result.created.map((monitor) => (
                <li key={monitor.id}>
                  <Link to={`/monitors/${monitor.id}`}>{monitor.name}</Link>{' '}
                  <span className="small url">
                    {monitor.url}, every {formatInterval(monitor.interval_seconds)}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          {result.skipped.length ? (
            <>
              <p>Already monitored, so skipped:</p>
              <ul className="skipped-urls">
                {result.skipped.map((skip) => (
                  <li key={skip.url} className="url">
                    {skip.url}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
