import { useCallback } from 'react';
import { api, ok, ProblemError } from '../api';
import { CollectionBadge, GateBadge, ReviewBadge } from '../components/Badge';
import { ProblemAlert } from '../components/ProblemAlert';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import type { Artifact, CurrentUser, ReleaseCheck } from '../types';
import { isCollecting, POLL_MS } from './check-state';
import { Evidence } from './Evidence';
import { History } from './History';
import { ReviewPanel } from './ReviewPanel';
import { Breadcrumb } from '../components/Breadcrumb';

const TRAIL = [{ to: '/release-checks', label: 'Release checks' }];

export function ReleaseCheckPage({ id, me }: { id: string; me: CurrentUser }) {
  const resource = useApi('/release-checks/{id}', { params: { path: { id } } });
  const { data: check, error, mutate } = resource;
  usePageTitle(check ? `${check.name} · Release check` : 'Release check');
  // While evidence is being collected, poll so progress shows without a reload.
  usePolling(check !== null && isCollecting(check), POLL_MS, resource.reload);

  const replace = useCallback((next: ReleaseCheck) => mutate(() => next), [mutate]);
  /** A pair's decision as the API answered it, without loading every pair again. */
  const applyDecision = useCallback(
    (decided: Artifact) =>
      mutate((current) => {
        const artifacts = current.artifacts.map((artifact) => (artifact.id === decided.id ? decided : artifact));
        const awaiting = artifacts.filter((artifact) => artifact.needs_decision && !artifact.decision).length;
        return { ...current, artifacts, summary: { ...current.summary, awaiting_decision: awaiting } };
      }),
    [mutate],
  );
  /** Loads the check now (after a decision on a stale revision), answering it, or null when that failed. */
  const refresh = useCallback(async () => {
    try {
      const next = await ok(api.GET('/release-checks/{id}', { params: { path: { id } } }));
      replace(next);
      return next;
    } catch {
      return null;
    }
  }, [id, replace]);

  if (!check) {
    return (
      <>
        <Breadcrumb trail={TRAIL} current={null} />
        {error ? (
          <>
            <h1>Release check</h1>
            <ProblemAlert
              error={error}
              title={error instanceof ProblemError && error.status === 404 ? 'Release check not found' : undefined}
            />
          </>
        ) : (
          <p className="loading" role="status">
            Loading release check…
          </p>
        )}
      </>
    );
  }

  const { summary } = check;
  const collecting = isCollecting(check);
  return (
    <>
      <Breadcrumb trail={TRAIL} current={check.name} />
      <div className="page-header check-header">
        <div>
          <h1>{check.name}</h1>
          <p className="check-badges">
            <GateBadge gate={check.gate} />
            <CollectionBadge status={check.collection_status} />
            <ReviewBadge status={check.review.status} />
          </p>
        </div>
        <dl className="meta-grid">
          <div>
            <dt>Revision</dt>
            <dd>{check.revision}</dd>
          </div>
          <div>
            <dt>Production</dt>
            <dd className="url">{check.production_url}</dd>
          </div>
          <div>
            <dt>Preview</dt>
            <dd className="url">{check.preview_url}</dd>
          </div>
          <div>
            <dt>Opened by</dt>
            <dd className="url">
              {check.opened_by ? (
                <>
                  {check.opened_by.email}
                  {check.opened_by.api_key_id ? ' (with an API key)' : ''}
                </>
              ) : (
                'Unknown (no longer in Vigil)'
              )}
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <time dateTime={check.created_at}>{formatDateTime(check.created_at)}</time>
            </dd>
          </div>
          <div>
            <dt>Collected</dt>
            <dd>{check.completed_at ? formatDateTime(check.completed_at) : collecting ? 'in progress' : '—'}</dd>
          </div>
        </dl>
      </div>

      {error ? <ProblemAlert error={error} title="The check could not be refreshed" /> : null}

      <section aria-labelledby="summary-heading" className="summary">
        <h2 id="summary-heading" className="visually-hidden">
          Summary
        </h2>
        <dl className="stats">
          <Stat label="Page × viewport pairs" value={summary.pairs} />
          <Stat label="Captured" value={summary.captured} />
          <Stat label="Missing evidence" value={summary.missing} tone={summary.missing > 0 ? 'danger' : undefined} />
          <Stat
            label="With differences"
            value={summary.with_differences}
            tone={summary.with_differences > 0 ? 'warning' : undefined}
          />
          <Stat
            label="New findings"
            value={summary.new_findings}
            tone={summary.new_findings > 0 ? 'warning' : undefined}
          />
        </dl>
        <p className="progress" role="status" aria-live="polite">
          {collecting
            ? `Collecting evidence (${check.collection_status}): ${summary.captured + summary.missing} of ${summary.pairs} pairs done. This page updates every 2 seconds.`
            : ''}
        </p>
      </section>

      <div className="check-layout">
        <section aria-labelledby="evidence-heading" className="evidence">
          <h2 id="evidence-heading">Evidence</h2>
          {check.artifacts.length === 0 ? (
            <p className="muted">No evidence yet{collecting ? ': collection has not started' : ''}.</p>
          ) : (
            <Evidence check={check} me={me} reload={refresh} onDecided={applyDecision} />
          )}
        </section>
        <div className="review-column">
          <ReviewPanel check={check} me={me} onChange={replace} reload={refresh} />
          <History history={check.review.history} />
        </div>
      </div>
    </>
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
