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
/** What each kind of change is called in a list, and in a heading of its own. */
export const CHANGE_KIND_LABELS: Record<Change['kind'], { badge: string; heading: string }> = {
  content: { badge: 'Content', heading: 'The watched text changed' },
  value: { badge: 'Value', heading: 'A tracked value moved' },
  visual: { badge: 'Visual', heading: 'The page looks different' },
  metadata: { badge: 'Metadata', heading: 'What the page says about itself changed' },
};

/** A metadata change: each field, before and after. */
export function MetadataMove({ fields }: { fields: NonNullable<Change['metadata']> }) {
  const shown = (value: string | null) =>
    value === null ? <span className="muted">(none)</span> : <code>{value}</code>;
  return (
    <table className="table table-compact">
      <caption className="visually-hidden">Metadata before and after</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field.field}>
            <th scope="row">{METADATA_FIELD_LABELS[field.field]}</th>
            <td>{shown(field.before)}</td>
            <td>{shown(field.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const METADATA_FIELD_LABELS: Record<NonNullable<Change['metadata']>[number]['field'], string> = {
  title: 'Title',
  robots: 'Robots meta',
  canonical: 'Canonical link',
  status_class: 'HTTP status class',
};

export function ChangeScreenshots({
  change,
  className = 'screenshots',
  alt,
}: {
  change: Pick<Change, 'before_screenshot_url' | 'after_screenshot_url' | 'visual'>;
  className?: string;
  /** The image's text alternative, from its label ("Before", "After", "Difference"). */
  alt: (label: 'Before' | 'After' | 'Difference') => string;
}) {
  const shots = [
    ['Before', change.before_screenshot_url],
    ['After', change.after_screenshot_url],
    ['Difference', change.visual?.diff_url ?? null],
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
