import type { Change, ChangeDetail } from '../types';
import { Badge } from './Badge';

export function SummarySource({ source }: { source: Change['summary']['source'] }) {
  return source === 'llm' ? (
    <Badge tone="info" title="Written by a language model">
      <span className="visually-hidden">Summary source: </span>Model summary
    </Badge>
  ) : (
    <Badge tone="neutral" title="Written by Vigil's rules: what was added, removed, which numbers moved">
      <span className="visually-hidden">Summary source: </span>Heuristic summary
    </Badge>
  );
}

export function FeedbackBadges({ change }: { change: Pick<Change, 'feedback' | 'archived'> }) {
  return (
    <>
      {change.feedback === 'useful' ? <Badge tone="success">Useful</Badge> : null}
      {change.feedback === 'noise' ? <Badge tone="warning">Noise</Badge> : null}
      {change.archived ? <Badge tone="neutral">Archived</Badge> : null}
    </>
  );
}

/** A moved value: before → after. */
export function ValueMove({ value }: { value: NonNullable<Change['value']> }) {
  return (
    <p className="value-move">
      <strong>{value.name}</strong>: <del>{value.before ?? '(none)'}</del>
      <span aria-hidden="true"> → </span>
      <span className="visually-hidden"> changed to </span>
      <ins>{value.after ?? '(none)'}</ins>
    </p>
  );
}

/** The removed and added lines of a change's text, one per row, wrapping at any width. */
export function ChangeDiff({ diff, label }: { diff: NonNullable<ChangeDetail['diff']>; label: string }) {
  if (diff.added.length === 0 && diff.removed.length === 0) return <p className="muted">No lines changed.</p>;
  return (
    <>
      <p className="small muted">
        {diff.removed.length} removed, {diff.added.length} added
        {diff.truncated ? ' (truncated: only the first 500 lines of each are listed)' : ''}
      </p>
      <ul className="text-diff" aria-label={label}>
        {diff.removed.map((line, index) => (
          <li key={`r${index}`} className="diff-removed">
            <span className="diff-marker" aria-hidden="true">
              −
            </span>
            <del>
              <span className="visually-hidden">Removed: </span>
              {line}
            </del>
          </li>
        ))}
        {diff.added.map((line, index) => (
          <li key={`a${index}`} className="diff-added">
            <span className="diff-marker" aria-hidden="true">
              +
            </span>
            <ins>
              <span className="visually-hidden">Added: </span>
              {line}
            </ins>
          </li>
        ))}
      </ul>
    </>
  );
}
