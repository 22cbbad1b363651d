import { memo, useEffect, useMemo, useState } from 'react';
import { SelectField } from '../components/Field';
import { plural } from '../format';
import type { Artifact, CurrentUser, ReleaseCheck } from '../types';
import { ArtifactView } from './ArtifactView';
import { reviewRights } from './check-state';
import { matchesFilter, PAIR_FILTERS, type PairFilter, reviewRank } from './pair-filters';
import { PairDecision } from './PairDecision';

/**
 * The pairs a reviewer must look at first: those with differences (undecided before decided), then missing evidence;
 * pairs without differences follow, collapsed. A filter narrows the list; the keyboard moves through it (j and k)
 * and decides the current pair (a accepts; r goes to the note, which a rejection needs).
 */
export function Evidence({
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
