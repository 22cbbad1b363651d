import type { Change, ChangeDetail } from '../types';
import { AuthImage } from './AuthImage';
import { Badge } from './Badge';
import { LineDiff } from './LineDiff';

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
    <LineDiff
      removed={diff.removed}
      added={diff.added}
      truncated={diff.truncated}
      truncatedNote="truncated: only the first 500 lines of each are listed"
      label={label}
    />
  );
}

/** A change's before and after screenshots (browser monitors), each in a scrollable, focusable frame. */
export function ChangeScreenshots({
  change,
  className = 'screenshots',
  alt,
}: {
  change: Pick<Change, 'before_screenshot_url' | 'after_screenshot_url'>;
  className?: string;
  /** The image's text alternative, from its label ("Before", "After"). */
  alt: (label: 'Before' | 'After') => string;
}) {
  const shots = [
    ['Before', change.before_screenshot_url],
    ['After', change.after_screenshot_url],
  ] as const;
  return (
    <div className={className}>
      {shots.map(([label, url]) =>
        url ? (
          <figure key={label} className="shot">
            <figcaption>{label}</figcaption>
            <div className="shot-frame" tabIndex={0} role="group" aria-label={`${label} screenshot (scrollable)`}>
              <AuthImage src={url} alt={alt(label)} />
            </div>
          </figure>
        ) : null,
      )}
    </div>
  );
}
