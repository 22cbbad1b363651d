import { Badge } from '../components/Badge';
import { LineDiff } from '../components/LineDiff';
import type { Artifact } from '../types';
import { pairLabel, type SideName } from './artifact-labels';

export function TextDiff({ artifact }: { artifact: Artifact }) {
  const text = artifact.comparison?.text;
  if (!text) {
    return (
      <p className="muted">
        {artifact.state === 'missing' ? 'Not compared: evidence is missing.' : 'Not compared yet.'}
      </p>
    );
  }
  if (!text.changed) return <p className="muted">The rendered text is the same on both sides.</p>;
  return (
    <LineDiff
      removed={text.removed}
      added={text.added}
      truncated={text.truncated}
      truncatedNote="truncated: only the first differences are listed"
      label={`Text differences, ${pairLabel(artifact)}, ${artifact.viewport}`}
    />
  );
}

export function ValueRow({
  name,
  production,
  preview,
  changed,
  artifact,
}: {
  name: string;
  production: string | null;
  preview: string | null;
  changed: boolean | undefined;
  artifact: Artifact;
}) {
  const show = (side: SideName, value: string | null) =>
    artifact[side].state === 'missing' ? (
      <span className="text-danger">missing</span>
    ) : artifact[side].state === 'pending' ? (
      <span className="muted">not captured yet</span>
    ) : value === null ? (
      <span className="muted">(none)</span>
    ) : (
      <code className="value">{value}</code>
    );
  return (
    <tr className={changed ? 'row-changed' : undefined}>
      <th scope="row">
        {name}
        {changed ? (
          <>
            {' '}
            <Badge tone="warning">Changed</Badge>
          </>
        ) : null}
      </th>
      <td>{show('production', production)}</td>
      <td>{show('preview', preview)}</td>
    </tr>
  );
}

export function RequiredSelector({ artifact, selector }: { artifact: Artifact; selector: string | null }) {
  if (!selector) return <p className="muted">No required selector for this page.</p>;
  const result = (side: SideName) => {
    const found = artifact[side].required_selector_found;
    if (found === true) return <Badge tone="success">Found</Badge>;
    if (found === false) return <Badge tone="danger">Not found</Badge>;
    return <span className="muted">{artifact[side].state === 'missing' ? 'not checked' : 'not checked yet'}</span>;
  };
  return (
    <>
      <p>
        <code>{selector}</code> must be present on both sides (presence only, not a user journey).
      </p>
      <dl className="inline-facts">
        <div>
          <dt>Production</dt>
          <dd>{result('production')}</dd>
        </div>
        <div>
          <dt>Preview</dt>
          <dd>{result('preview')}</dd>
        </div>
      </dl>
    </>
  );
}
