import { useState } from 'react';
import { api, ok } from '../api';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatDateTime, plural } from '../format';
import { canWrite } from '../permissions';
import type { Crawl, CrawlFailure, CrawlSkipped, CrawlSummary, CurrentUser } from '../types';
import { CrawlStatusBadge, inProgress, POLL_MS } from './crawl-status';

/** Why URLs found were not listed as pages, in words, in the API's order. */
const SKIPPED: { reason: keyof CrawlSkipped; label: string }[] = [
  { reason: 'robots', label: 'Disallowed by robots.txt' },
  { reason: 'out_of_scope', label: 'On another origin' },
  { reason: 'excluded', label: 'Left out by the include or exclude globs' },
  { reason: 'not_html', label: 'Not HTML (a PDF, an image…)' },
  { reason: 'duplicate', label: 'Duplicates of another page (canonical link or redirect)' },
  { reason: 'error', label: 'Errors (HTTP 4xx or 5xx, timeouts, too many redirects)' },
];

const FAILURE: Record<CrawlFailure['reason'], string> = {
  robots_unavailable:
    'robots.txt could not be read (it answered with a server error, or not at all), so nothing may be crawled.',
  robots_disallowed: 'robots.txt does not allow VigilBot to fetch the start URL.',
  start_url_failed: 'The start URL could not be fetched as an HTML page, and nothing else was found.',
  interrupted: 'The crawl could not go on (the service kept failing to record it). Start a new one.',
};

/** How a crawl ended, in a sentence; null while it runs. */
function outcome(crawl: CrawlSummary): string | null {
  switch (crawl.status) {
    case 'queued':
    case 'running':
      return null;
    case 'completed':
      if (crawl.stop_reason === 'max_pages') {
        return `It stopped at its limit of ${plural(crawl.max_pages, 'page')}, with URLs left to visit.`;
      }
      if (crawl.stop_reason === 'max_depth') {
        return `It stopped at its depth limit: pages more than ${plural(crawl.max_depth, 'link')} from the start URL were found and not fetched.`;
      }
      return 'It found every page it could reach from the start URL and the sitemaps.';
    case 'failed':
      return crawl.failure ? FAILURE[crawl.failure.reason] : 'Nothing could be crawled.';
    case 'cancelled':
      return 'It was cancelled; the pages found before that can still be monitored.';
  }
}

export function CrawlProgress({
  crawl,
  me,
  onCancelled,
}: {
  crawl: Crawl;
  me: CurrentUser;
  onCancelled: (summary: CrawlSummary) => void;
}) {
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const running = inProgress(crawl);
  const ended = outcome(crawl);
  const skippedTotal = SKIPPED.reduce((sum, { reason }) => sum + crawl.skipped[reason], 0);

  async function cancel() {
    setCancelling(true);
    setError(null);
    try {
      onCancelled(await ok(api.POST('/crawl/{id}/cancel', { params: { path: { id: crawl.id } } })));
    } catch (caught) {
      setError(caught);
    } finally {
      setCancelling(false);
    }
  }

  return (
    <>
      <div className="page-header">
        <div className="crawl-title">
          <p className="eyebrow">Crawl</p>
          <h1 className="url">{crawl.origin}</h1>
          <p className="check-badges">
            <CrawlStatusBadge status={crawl.status} />
            <span className="url muted">from {crawl.url}</span>
          </p>
        </div>
        {running && canWrite(me) ? (
          <button
            type="button"
            className="button button-danger-outline"
            disabled={cancelling}
            onClick={() => void cancel()}
          >
            {cancelling ? 'Cancelling…' : 'Cancel crawl'}
          </button>
        ) : null}
      </div>
      <ProblemAlert error={error} title="The crawl was not cancelled" />
      <dl className="meta-grid crawl-meta">
        <div>
          <dt>Requested</dt>
          <dd>{formatDateTime(crawl.created_at)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{crawl.started_at ? formatDateTime(crawl.started_at) : 'Not yet'}</dd>
        </div>
        <div>
          <dt>Ended</dt>
          <dd>{crawl.completed_at ? formatDateTime(crawl.completed_at) : running ? 'In progress' : '—'}</dd>
        </div>
        <div>
          <dt>Limits</dt>
          <dd>
            {plural(crawl.max_pages, 'page')}, {plural(crawl.max_depth, 'link')} deep
          </dd>
        </div>
        <div>
          <dt>Include</dt>
          <dd className="url">{crawl.include.length ? crawl.include.join(', ') : 'every path'}</dd>
        </div>
        <div>
          <dt>Exclude</dt>
          <dd className="url">{crawl.exclude.length ? crawl.exclude.join(', ') : 'nothing'}</dd>
        </div>
      </dl>

      <p className="progress" role="status" aria-live="polite">
        {running
          ? `The crawl is ${crawl.status === 'queued' ? 'queued' : 'running'}: ${plural(crawl.pages_found, 'page')} found so far. This page updates every ${POLL_MS / 1000} seconds.`
          : ''}
      </p>

      {crawl.status === 'failed' ? (
        <div className="alert alert-danger" role="alert">
          <p className="alert-title">The crawl failed</p>
          <p>{ended}</p>
          {crawl.failure?.message ? <p>What the site did: {crawl.failure.message}</p> : null}
        </div>
      ) : ended ? (
        <p className={`alert ${crawl.status === 'cancelled' ? 'alert-warning' : 'alert-success'}`}>
          <strong>{crawl.status === 'cancelled' ? 'Cancelled.' : 'Completed.'}</strong> {ended}
        </p>
      ) : null}

      <div className="crawl-counts">
        <dl className="stats">
          <div className="stat">
            <dt>Pages found</dt>
            <dd>{crawl.pages_found}</dd>
          </div>
          <div className={`stat${skippedTotal ? ' stat-warning' : ''}`}>
            <dt>Not listed</dt>
            <dd>{skippedTotal}</dd>
          </div>
        </dl>
        <section aria-labelledby="skipped-heading" className="crawl-skipped">
          <h2 id="skipped-heading" className="h-small">
            URLs found but not listed, by reason
          </h2>
          <dl className="skipped-list">
            {SKIPPED.map(({ reason, label }) => (
              <div key={reason} className={crawl.skipped[reason] ? undefined : 'muted'}>
                <dt>{label}</dt>
                <dd>{crawl.skipped[reason]}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </>
  );
}
