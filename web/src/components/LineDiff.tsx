/**
 * Removed and added lines, one per row, wrapping at any width; each line is announced as removed or added, not by
 * its colour or marker.
 */
export function LineDiff({
  removed,
  added,
  truncated,
  truncatedNote,
  label,
}: {
  removed: string[];
  added: string[];
  truncated: boolean;
  /** What to say when the lists were cut short. */
  truncatedNote: string;
  label: string;
}) {
  return (
    <>
      <p className="small muted">
        {removed.length} removed, {added.length} added
        {truncated ? ` (${truncatedNote})` : ''}
      </p>
      <ul className="text-diff" aria-label={label}>
        {removed.map((line, index) => (
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
        {added.map((line, index) => (
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
