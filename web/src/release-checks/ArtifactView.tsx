import { useRef } from 'react';
import type { ReactNode } from 'react';
import { Badge } from '../components/Badge';
import { TableWrap } from '../components/TableWrap';
import { useNearViewport } from '../hooks/useNearViewport';
import type { Artifact } from '../types';
import { pairLabel } from './artifact-labels';
import { RequiredSelector, TextDiff, ValueRow } from './ArtifactDiffs';
import { Findings, MovesOnItsOwn } from './ArtifactFindings';
import { hasUnstable } from './pair-filters';
import { Screenshots } from './Screenshots';

function ArtifactState({ artifact }: { artifact: Artifact }) {
  if (artifact.state === 'missing') return <Badge tone="danger">Missing evidence</Badge>;
  if (artifact.state === 'collecting') return <Badge tone="info">Collecting</Badge>;
  const moves = hasUnstable(artifact.comparison?.unstable ?? null);
  return (
    <span className="artifact-badges">
      {artifact.comparison?.has_differences ? (
        <Badge tone="warning">Differences</Badge>
      ) : (
        <Badge tone="success">No differences</Badge>
      )}
      {moves ? <Badge tone="neutral">Moves on its own</Badge> : null}
    </span>
  );
}

export function ArtifactView({
  artifact,
  requiredSelector,
  decision,
  current = false,
}: {
  artifact: Artifact;
  /** The page's required selector, if it has one. */
  requiredSelector: string | null;
  /** The pair's decision and its controls, under the header. */
  decision?: ReactNode;
  /** The pair the keyboard is on. */
  current?: boolean;
}) {
  const label = pairLabel(artifact);
  const headingId = `artifact-${artifact.id}`;
  const ref = useRef<HTMLElement>(null);
  // The header and decision always render (the keyboard and the filters work on them); the evidence, with its
  // screenshots, only once the pair comes near the viewport.
  const near = useNearViewport(ref);
  return (
    <article
      ref={ref}
      id={`pair-${artifact.id}`}
      className={`artifact card${current ? ' artifact-current' : ''}`}
      aria-labelledby={headingId}
      aria-current={current ? 'true' : undefined}
      tabIndex={-1}
    >
      <header className="artifact-header">
        <h3 id={headingId}>
          <span className="artifact-path">{label}</span>{' '}
          <span className="artifact-viewport">· {artifact.viewport}</span>
        </h3>
        <ArtifactState artifact={artifact} />
      </header>
      {decision}
      {near ? (
        <Evidence artifact={artifact} requiredSelector={requiredSelector} />
      ) : (
        <p className="artifact-deferred muted">The evidence shows when you reach this pair.</p>
      )}
    </article>
  );
}

function Evidence({ artifact, requiredSelector }: { artifact: Artifact; requiredSelector: string | null }) {
  const label = pairLabel(artifact);
  const comparison = artifact.comparison;
  return (
    <>
      <Screenshots artifact={artifact} />

      <div className="artifact-details">
        <section className="detail">
          <h4>Text</h4>
          <TextDiff artifact={artifact} />
        </section>

        <section className="detail">
          <h4>Robots and canonical</h4>
          <TableWrap label={`Robots and canonical, ${label}, ${artifact.viewport}`}>
            <table className="table table-compact">
              <caption className="visually-hidden">
                Robots meta and canonical link, {label}, {artifact.viewport}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Production (before)</th>
                  <th scope="col">Preview (after)</th>
                </tr>
              </thead>
              <tbody>
                <ValueRow
                  name="Robots meta"
                  production={comparison?.robots.production ?? artifact.production.robots}
                  preview={comparison?.robots.preview ?? artifact.preview.robots}
                  changed={comparison?.robots.changed}
                  artifact={artifact}
                />
                <ValueRow
                  name="Canonical link"
                  production={comparison?.canonical.production ?? artifact.production.canonical}
                  preview={comparison?.canonical.preview ?? artifact.preview.canonical}
                  changed={comparison?.canonical.changed}
                  artifact={artifact}
                />
              </tbody>
            </table>
          </TableWrap>
        </section>

        <section className="detail">
          <h4>Required selector</h4>
          <RequiredSelector artifact={artifact} selector={requiredSelector} />
        </section>

        <section className="detail">
          <h4>Accessibility findings</h4>
          <Findings artifact={artifact} />
        </section>

        <MovesOnItsOwn artifact={artifact} />
      </div>
    </>
  );
}
