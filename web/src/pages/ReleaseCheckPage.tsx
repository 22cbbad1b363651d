import { type FormEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { ArtifactView } from '../components/ArtifactView';
import { SelectField } from '../components/Field';
import { PairDecision } from '../components/PairDecision';
import { matchesFilter, PAIR_FILTERS, type PairFilter, reviewRank } from '../release-checks/pair-filters';
import { CollectionBadge, GateBadge, ReviewBadge } from '../components/Badge';
import { ProblemAlert } from '../components/ProblemAlert';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime, plural } from '../format';
import { usePolling, useResource } from '../hooks/useResource';
import { Link } from '../router';
import type { Artifact, CurrentUser, ReleaseCheck, ReviewDecision, ReviewRecord } from '../types';

const POLL_MS = 2_000;

const isCollecting = (check: ReleaseCheck) =>
  check.collection_status === 'queued' || check.collection_status === 'running';

export function ReleaseCheckPage({ id, me }: { id: string; me: CurrentUser }) {
  const resource = useResource(`/release-checks/${id}`, (signal) =>
    ok(api.GET('/release-checks/{id}', { params: { path: { id } }, signal })),
  );
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
        <Breadcrumb name={null} />
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
      <Breadcrumb name={check.name} />
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

/**
 * The pairs a reviewer must look at first: those with differences (undecided before decided), then missing evidence;
 * pairs without differences follow, collapsed. A filter narrows the list; the keyboard moves through it (j and k)
 * and decides the current pair (a accepts; r goes to the note, which a rejection needs).
 */
function Evidence({
  check,
  me,
  reload,
  onDecided,
}: {
  check: ReleaseCheck;
  me: CurrentUser;
  reload: () => Promise<ReleaseCheck | null>;
  onDecided: (artifact: Artifact) => void;
}) {
  const [filter, setFilter] = useState<PairFilter>('all');
  /** The pair the keyboard is on; none until j or k is pressed. */
  const [current, setCurrent] = useState(-1);
  const canDecide =
    reviewRights(check, me).canReview && check.collection_status === 'completed' && !check.review.decision;
  const { ordered, shown, collapsed, keyboardOrder } = useMemo(() => {
    const matching = check.artifacts.filter((artifact) => matchesFilter(artifact, filter));
    matching.sort((a, b) => reviewRank(a) - reviewRank(b));
    const folded = filter === 'all' ? matching.filter((artifact) => reviewRank(artifact) === 2) : [];
    const open = matching.filter((artifact) => !folded.includes(artifact));
    return { ordered: matching, shown: open, collapsed: folded, keyboardOrder: [...open, ...folded] };
  }, [check.artifacts, filter]);

  useEffect(() => {
    const articleOf = (index: number) => {
      const artifact = keyboardOrder[index];
      return artifact ? document.getElementById(`pair-${artifact.id}`) : null;
    };
    const go = (index: number) => {
      const next = Math.max(0, Math.min(keyboardOrder.length - 1, index));
      const article = articleOf(next);
      if (!article) return;
      setCurrent(next);
      article.closest('details')?.setAttribute('open', '');
      article.focus();
      article.scrollIntoView({ block: 'start' });
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable]')) return;
      if (event.key === 'j') go(current + 1);
      else if (event.key === 'k') go(Math.max(0, current - 1));
      else if (event.key === 'a')
        articleOf(current)?.querySelector<HTMLButtonElement>('button[value="accept"]')?.click();
      else if (event.key === 'r')
        articleOf(current)?.querySelector<HTMLInputElement>('.pair-decision-form input')?.focus();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [current, keyboardOrder]);

  const view = (artifact: Artifact) => (
    <PairView
      key={artifact.id}
      artifact={artifact}
      checkId={check.id}
      revision={check.revision}
      requiredSelector={check.pages[artifact.page_index]?.required_selector ?? null}
      current={keyboardOrder[current]?.id === artifact.id}
      canDecide={canDecide}
      onDecided={onDecided}
      onConflict={reload}
    />
  );
  return (
    <>
      <div className="toolbar">
        <SelectField
          id="pair-filter"
          label="Show"
          className="field-inline"
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setCurrent(-1);
          }}
          options={PAIR_FILTERS}
        />
        <p className="small muted" id="pair-keys">
          Keys: <kbd>j</kbd> next pair, <kbd>k</kbd> previous, <kbd>a</kbd> accept, <kbd>r</kbd> reject (write the note,
          then press Enter on Reject).
        </p>
      </div>
      {ordered.length === 0 ? <p className="muted">No pair matches this filter.</p> : null}
      {shown.map(view)}
      {collapsed.length > 0 ? (
        <details className="unchanged-pairs" open={collapsed.length === ordered.length}>
          <summary>
            {plural(collapsed.length, 'pair')} without differences
            {check.collection_status === 'completed' ? ' (no decision needed)' : ''}
          </summary>
          {collapsed.map(view)}
        </details>
      ) : null}
    </>
  );
}

/**
 * One pair with its decision. Memoized on values that hold still, so moving through hundreds of pairs or deciding
 * one renders only the pairs concerned.
 */
const PairView = memo(function PairView({
  artifact,
  requiredSelector,
  current,
  ...decision
}: {
  artifact: Artifact;
  checkId: string;
  revision: number;
  requiredSelector: string | null;
  current: boolean;
  canDecide: boolean;
  onDecided: (artifact: Artifact) => void;
  onConflict: () => Promise<unknown>;
}) {
  return (
    <ArtifactView
      artifact={artifact}
      requiredSelector={requiredSelector}
      current={current}
      decision={<PairDecision artifact={artifact} {...decision} />}
    />
  );
});

function Breadcrumb({ name }: { name: string | null }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        <li>
          <Link to="/release-checks">Release checks</Link>
        </li>
        {name ? (
          <li>
            <span aria-current="page">{name}</span>
          </li>
        ) : null}
      </ol>
    </nav>
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

function Scope({ check }: { check: Pick<ReleaseCheck, 'pages' | 'viewports'> }) {
  return (
    <>
      {plural(check.pages.length, 'page')} × {plural(check.viewports.length, 'viewport')} ({check.viewports.join(', ')}
      ):
      <ul className="scope-pages">
        {check.pages.map((page, index) => (
          <li key={index}>
            <code>{page.production_path}</code>
            {page.preview_path !== page.production_path ? (
              <>
                {' → '}
                <code>{page.preview_path}</code>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Who may decide, from the person's role in the workspace and its review policy (the API enforces both): a viewer
 * cannot review; with `require_distinct_reviewer`, whoever opened the check may reject it but not approve it.
 */
export function reviewRights(check: ReleaseCheck, me: CurrentUser): { canReview: boolean; mayApprove: boolean } {
  const canReview = me.workspace.role === 'admin' || me.workspace.role === 'member';
  const openerBarred = me.workspace.review_policy.require_distinct_reviewer && check.opened_by?.id === me.id;
  return { canReview, mayApprove: canReview && !openerBarred };
}

function ReviewPanel({
  check,
  me,
  onChange,
  reload,
}: {
  check: ReleaseCheck;
  me: CurrentUser;
  onChange: (check: ReleaseCheck) => void;
  reload: () => Promise<ReleaseCheck | null>;
}) {
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [stale, setStale] = useState<{ from: number; to: number } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<ReviewDecision | 'rerun' | null>(null);
  const [carryOver, setCarryOver] = useState(false);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const progress = pairProgress(check);

  const collecting = isCollecting(check);
  const incomplete = check.collection_status === 'incomplete' || check.review.status === 'cannot_approve';
  const decided = check.review.decision;
  const { canReview, mayApprove } = reviewRights(check, me);
  const offerApprove = mayApprove && !incomplete;
  const workspace = me.workspace;
  const distinct = workspace.review_policy.require_distinct_reviewer;

  async function decide(decision: ReviewDecision) {
    setError(null);
    setDone(null);
    if (!note.trim()) {
      setNoteError('Write a note: what you reviewed and why you decided.');
      noteRef.current?.focus();
      return;
    }
    setNoteError(null);
    setBusy(decision);
    const revision = check.revision;
    try {
      const updated = await ok(
        api.POST('/release-checks/{id}/review', {
          params: { path: { id: check.id } },
          body: { decision, note: note.trim(), revision, ...(carryOver ? { carry_over: true } : {}) },
        }),
      );
      setStale(null);
      setNote('');
      onChange(updated);
      setDone(
        `${decision === 'approve' ? 'Approved' : 'Rejected'} revision ${revision}. The gate is now ${updated.gate}.`,
      );
    } catch (caught) {
      if (caught instanceof ProblemError && caught.code === 'stale_revision') {
        const fresh = await reload();
        setStale({ from: revision, to: fresh?.revision ?? caught.problem.current_revision ?? revision + 1 });
      } else {
        setError(caught);
        if (caught instanceof ProblemError && caught.status === 409) await reload();
      }
    } finally {
      setBusy(null);
    }
  }

  async function rerun() {
    setError(null);
    setDone(null);
    setBusy('rerun');
    try {
      onChange(await ok(api.POST('/release-checks/{id}/rerun', { params: { path: { id: check.id } } })));
      setDone('Collecting the evidence again as a new revision.');
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void decide(submitter?.value === 'approve' && offerApprove ? 'approve' : 'reject');
  }

  return (
    <section aria-labelledby="review-heading" className="card review-panel">
      <h2 id="review-heading">Review</h2>
      <p className="review-applies">
        {canReview ? 'Your' : 'A'} decision applies to <strong>revision {check.revision}</strong>, for{' '}
        <Scope check={check} />
      </p>
      <p className="review-who">
        <strong>Who may approve:</strong>{' '}
        {distinct
          ? `a member or admin of ${workspace.name} other than the person who opened the check${check.opened_by ? ` (${check.opened_by.email})` : ''}: this workspace requires a second person to approve.`
          : `any member or admin of ${workspace.name}. Viewers cannot review.`}
      </p>

      {stale ? (
        <div className="alert alert-warning" role="alert">
          <p className="alert-title">The check changed while you were reviewing</p>
          <p>
            Your decision was for revision {stale.from}, but the check has been collected again and revision {stale.to}{' '}
            is now current, so nothing was recorded. The new evidence has been loaded: review it, then decide again.
          </p>
        </div>
      ) : null}
      {done ? (
        <p className="alert alert-success" role="status">
          {done}
        </p>
      ) : null}
      <ProblemAlert error={error} />

      {!collecting && !decided && progress.needing > 0 ? (
        <p className="pair-progress" role="status">
          <strong>
            {progress.decided} of {plural(progress.needing, 'pair')} with differences decided
          </strong>
          {progress.rejected > 0 ? `, ${progress.rejected} rejected` : ''}. Approving needs every one accepted.
        </p>
      ) : null}

      {collecting ? (
        <p className="alert alert-info">Evidence is still being collected. Review opens when collection finishes.</p>
      ) : decided ? (
        <div className={`decision decision-${decided.decision}`}>
          <p className="decision-title">
            {decided.decision === 'approve' ? 'Approved' : 'Rejected'} by {decided.reviewer.email}
          </p>
          <p className="small muted">
            Revision {decided.revision} ·{' '}
            <time dateTime={decided.decided_at}>{formatDateTime(decided.decided_at)}</time>
          </p>
          <blockquote className="decision-note">{decided.note}</blockquote>
          <p className="small muted">A new revision needs its own review: approvals never carry over.</p>
        </div>
      ) : !canReview ? (
        <div className="alert alert-info" id="review-not-permitted">
          <p className="alert-title">You cannot review this check</p>
          <p>
            {workspace.role === 'viewer'
              ? `You are a viewer of ${workspace.name}: viewers can read release checks but not approve or reject them.`
              : `You have no role in ${workspace.name} that lets you review.`}{' '}
            A member or admin of the workspace can decide; an admin can change your role.
          </p>
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          {!mayApprove && !incomplete ? (
            <div className="alert alert-warning" id="distinct-reviewer-reason">
              <p className="alert-title">A second person must approve this check</p>
              <p>
                {workspace.name} requires a second person to approve release checks, and you opened this one
                {check.opened_by?.api_key_id ? ' (with an API key you created)' : ''}, so you cannot approve it. Another
                member or admin can; you can still reject it.
              </p>
            </div>
          ) : null}
          {incomplete ? (
            <div className="alert alert-danger" id="cannot-approve-reason">
              <p className="alert-title">This check cannot be approved</p>
              <p>
                Evidence is missing for {check.summary.missing} of {check.summary.pairs} page × viewport{' '}
                {check.summary.pairs === 1 ? 'pair' : 'pairs'} (see the evidence marked missing). A page that could not
                be captured is never treated as a clean page, so the gate stays failed. Fix the pages and collect the
                evidence again; you can still record a rejection.
              </p>
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="review-note">
              Review note <span className="required">(required)</span>
            </label>
            <p id="review-note-hint" className="hint">
              What you compared and why you decided. It is kept with the decision.
            </p>
            <textarea
              id="review-note"
              ref={noteRef}
              rows={4}
              maxLength={5000}
              required
              aria-required="true"
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? 'review-note-hint review-note-error' : 'review-note-hint'}
              value={note}
              onChange={(event) => {
                setNote(event.target.value);
                if (event.target.value.trim()) setNoteError(null);
              }}
            />
            {noteError ? (
              <p id="review-note-error" className="field-error">
                {noteError}
              </p>
            ) : null}
          </div>
          {canReview && progress.carryable > 0 ? (
            <div className="field field-checkbox">
              <input
                id="review-carry-over"
                type="checkbox"
                checked={carryOver}
                onChange={(event) => setCarryOver(event.target.checked)}
              />
              <label htmlFor="review-carry-over">
                Carry over {plural(progress.carryable, 'acceptance')} of pairs unchanged since an earlier revision
                (marked on each pair); the record will say they were carried.
              </label>
            </div>
          ) : null}
          <div className="button-row">
            {offerApprove ? (
              <button type="submit" value="approve" className="button button-success" disabled={busy !== null}>
                {busy === 'approve' ? 'Approving…' : `Approve revision ${check.revision}`}
              </button>
            ) : null}
            <button type="submit" value="reject" className="button button-danger" disabled={busy !== null}>
              {busy === 'reject' ? 'Rejecting…' : `Reject revision ${check.revision}`}
            </button>
          </div>
        </form>
      )}

      {canReview && !collecting && (incomplete || decided) ? (
        <div className="rerun">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void rerun()}
            disabled={busy !== null}
          >
            {busy === 'rerun' ? 'Starting…' : 'Collect evidence again'}
          </button>
          <p className="hint">Starts revision {check.revision + 1}; its gate stays pending until it is reviewed.</p>
        </div>
      ) : null}
    </section>
  );
}

function History({ history }: { history: ReviewRecord[] }) {
  const ordered = [...history].sort((a, b) => b.decided_at.localeCompare(a.decided_at));
  return (
    <section aria-labelledby="history-heading" className="card history">
      <h2 id="history-heading">Decision history</h2>
      {ordered.length === 0 ? (
        <p className="muted">No decisions recorded yet.</p>
      ) : (
        <ol className="history-list">
          {ordered.map((record) => (
            <li key={`${record.revision}-${record.decided_at}`} className={`history-item decision-${record.decision}`}>
              <p>
                <strong>{record.decision === 'approve' ? 'Approved' : 'Rejected'}</strong> revision {record.revision} by{' '}
                {record.reviewer.email}
              </p>
              <p className="small muted">
                <time dateTime={record.decided_at}>{formatDateTime(record.decided_at)}</time> ·{' '}
                {plural(record.scope.pages.length, 'page')} × {record.scope.viewports.join(', ')}
              </p>
              <blockquote className="decision-note">{record.note}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** How far the reviewer is: pairs that need a decision, decided, rejected, and undecided ones that can be carried. */
function pairProgress(check: ReleaseCheck): { needing: number; decided: number; rejected: number; carryable: number } {
  const needing = check.artifacts.filter((artifact) => artifact.needs_decision);
  return {
    needing: needing.length,
    decided: needing.filter((artifact) => artifact.decision !== null).length,
    rejected: needing.filter((artifact) => artifact.decision?.decision === 'rejected').length,
    carryable: needing.filter((artifact) => !artifact.decision && artifact.unchanged_since_revision !== null).length,
  };
}
