import { FindingList } from '../components/FindingList';
import type { Artifact } from '../types';
import { pairLabel } from './artifact-labels';
import { hasUnstable } from './pair-filters';

export function Findings({ artifact }: { artifact: Artifact }) {
  const findings = artifact.comparison?.findings;
  if (!findings) {
    return (
      <p className="muted">
        {artifact.state === 'missing' ? 'Not scanned: evidence is missing.' : 'Not compared yet.'}
      </p>
    );
  }
  return (
    <>
      {findings.engine_version_mismatch ? (
        <p className="alert alert-warning">
          The two sides were scanned with different axe-core versions ({artifact.production.axe_version} and{' '}
          {artifact.preview.axe_version}); their findings are not directly comparable.
        </p>
      ) : null}
      <p className="small muted">
        WCAG 2 A/AA and 2.1 AA rules (axe-core {artifact.preview.axe_version ?? 'unknown'}). {findings.new.length} new,{' '}
        {findings.fixed.length} fixed, {findings.unchanged} unchanged.
      </p>
      {findings.new.length > 0 ? (
        <>
          <h5>New findings on the preview</h5>
          <FindingList findings={findings.new} className="findings findings-new" />
        </>
      ) : (
        <p>No new findings.</p>
      )}
      {findings.fixed.length > 0 ? (
        <>
          <h5>Fixed on the preview</h5>
          <FindingList findings={findings.fixed} className="findings findings-fixed" />
        </>
      ) : null}
    </>
  );
}

/**
 * What differed between two looks at the same side, moments apart: shown dimmed and apart, never hidden, and never
 * counted as a difference (decision 0012).
 */
export function MovesOnItsOwn({ artifact }: { artifact: Artifact }) {
  const unstable = artifact.comparison?.unstable ?? null;
  if (!hasUnstable(unstable)) return null;
  const label = pairLabel(artifact);
  const headingId = `unstable-${artifact.id}`;
  const values = [unstable.robots ? 'the robots meta' : null, unstable.canonical ? 'the canonical link' : null].filter(
    (value) => value !== null,
  );
  return (
    <section className="detail unstable" aria-labelledby={headingId}>
      <h4 id={headingId}>Moves on its own</h4>
      <p className="small">
        This differed between two captures of the same side taken moments apart, so it is not counted as a difference
        between production and preview.
      </p>
      {unstable.lines.length > 0 ? (
        <>
          <h5>Text lines</h5>
          <ul className="unstable-lines" aria-label={`Text that moves on its own, ${label}, ${artifact.viewport}`}>
            {unstable.lines.map((line, index) => (
              <li key={index}>
                <code>{line}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {unstable.regions.length > 0 ? (
        <p className="small">
          {unstable.regions.length === 1 ? 'One area' : `${unstable.regions.length} areas`} of the screenshot (
          {unstable.regions
            .slice(0, 3)
            .map((region) => `${region.width}×${region.height} px at ${region.x}, ${region.y}`)
            .join('; ')}
          {unstable.regions.length > 3 ? '; …' : ''}) were left out of the pixel comparison.
        </p>
      ) : null}
      {values.length > 0 ? <p className="small">Also moving: {values.join(' and ')}.</p> : null}
      {unstable.findings.length > 0 ? (
        <>
          <h5>Findings</h5>
          <FindingList findings={unstable.findings} className="findings findings-unstable" />
        </>
      ) : null}
    </section>
  );
}
