import type { ReactNode } from 'react';
import { useRef, useState } from 'react';
import { formatPercent } from '../format';
import { useNearViewport } from '../hooks/useNearViewport';
import { hasUnstable } from '../release-checks/pair-filters';
import type { Artifact, CaptureSide } from '../types';
import { AuthImage } from './AuthImage';
import { Badge } from './Badge';
import { FindingList } from './FindingList';
import { LineDiff } from './LineDiff';
import { TableWrap } from './TableWrap';

const MISSING_REASON: Record<string, string> = {
  http_error: 'HTTP error',
  navigation_failed: 'Navigation failed',
  timeout: 'Timed out',
  required_selector_missing: 'Required selector missing',
  target_not_public: 'Target not public',
  capture_failed: 'Capture failed',
};

const SIDE_LABEL = { production: 'Production', preview: 'Preview' } as const;
type SideName = keyof typeof SIDE_LABEL;

export function pairLabel(artifact: Pick<Artifact, 'production_path' | 'preview_path'>): string {
  return artifact.production_path === artifact.preview_path
    ? artifact.production_path
    : `${artifact.production_path} → ${artifact.preview_path}`;
}

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

const SCREENSHOT_VIEWS = [
  { value: 'side-by-side', label: 'Side by side' },
  { value: 'overlay', label: 'Overlay' },
  { value: 'difference', label: 'Difference' },
] as const;
type ScreenshotView = (typeof SCREENSHOT_VIEWS)[number]['value'];

/**
 * Both screenshots side by side; or the preview with the differing pixels laid over it; or the differing pixels
 * alone, which finds a one-pixel shift that two similar pictures hide.
 */
function Screenshots({ artifact }: { artifact: Artifact }) {
  const [view, setView] = useState<ScreenshotView>('side-by-side');
  const label = pairLabel(artifact);
  const screenshot = artifact.comparison?.screenshot;
  const diffUrl = screenshot?.diff_url ?? null;
  const diffAlt = (kind: string) => `${kind}, ${label}, ${artifact.viewport}`;
  return (
    <section className="detail">
      <div className="detail-heading">
        <h4>Screenshots</h4>
        {screenshot ? (
          <p className="muted small screenshot-ratio">
            {screenshot.changed
              ? `Differs in ${formatPercent(screenshot.mismatch_ratio)} of pixels`
              : screenshot.mismatch_ratio > 0
                ? `Differs in ${formatPercent(screenshot.mismatch_ratio)} of pixels (within the threshold)`
                : 'Pixel-identical'}
          </p>
        ) : null}
        {diffUrl ? (
          <div className="segmented" role="group" aria-label={`Screenshot view, ${label}, ${artifact.viewport}`}>
            {SCREENSHOT_VIEWS.map((option) => (
              <button
                key={option.value}
                type="button"
                className="button button-small button-secondary"
                aria-pressed={view === option.value}
                onClick={() => setView(option.value)}
              >
                {option.label}
              </button>
            ))}
          </div>
        ) : null}
      </div>
      {diffUrl && view === 'difference' ? (
        <figure className="shot">
          <figcaption>
            <span className="shot-side">Differing pixels</span>
            <span className="small muted">tinted over the preview</span>
          </figcaption>
          <div className="shot-frame" tabIndex={0} role="group" aria-label={`${diffAlt('Differences')} (scrollable)`}>
            <AuthImage src={diffUrl} alt={diffAlt('Differences only')} />
          </div>
        </figure>
      ) : (
        <div className="screenshots">
          <SideShot side="production" artifact={artifact} />
          <SideShot
            side="preview"
            artifact={artifact}
            overlay={
              diffUrl && view === 'overlay' ? (
                <AuthImage className="shot-overlay" src={diffUrl} alt={diffAlt('Difference overlay')} />
              ) : null
            }
          />
        </div>
      )}
    </section>
  );
}

function SideShot({ side, artifact, overlay }: { side: SideName; artifact: Artifact; overlay?: ReactNode }) {
  const evidence: CaptureSide = artifact[side];
  const path = side === 'production' ? artifact.production_path : artifact.preview_path;
  const alt = `${SIDE_LABEL[side]} screenshot, ${path}, ${artifact.viewport}`;
  return (
    <figure className={`shot shot-${evidence.state}`}>
      <figcaption>
        <span className="shot-side">{SIDE_LABEL[side]}</span>
        {evidence.status !== null ? (
          <span className={`shot-status ${evidence.status >= 400 ? 'text-danger' : 'muted'}`}>
            HTTP {evidence.status}
          </span>
        ) : null}
        <span className="url small muted">{evidence.final_url ?? evidence.url}</span>
      </figcaption>
      {evidence.state === 'missing' ? (
        <MissingEvidence side={side} evidence={evidence} />
      ) : evidence.state === 'pending' ? (
        <p className="image-placeholder">Not captured yet.</p>
      ) : evidence.screenshot_url ? (
        <div className="shot-frame" tabIndex={0} role="group" aria-label={`${alt} (scrollable)`}>
          <AuthImage src={evidence.screenshot_url} alt={alt} />
          {overlay}
        </div>
      ) : (
        <p className="image-placeholder">No screenshot was recorded.</p>
      )}
    </figure>
  );
}

function MissingEvidence({ side, evidence }: { side: SideName; evidence: CaptureSide }) {
  const missing = evidence.missing;
  return (
    <div className="missing" role="note" aria-label={`${SIDE_LABEL[side]} evidence missing`}>
      <p className="missing-title">
        <span aria-hidden="true" className="missing-icon">
          !
        </span>
        Missing evidence
      </p>
      <dl className="missing-facts">
        <div>
          <dt>Reason</dt>
          <dd>{missing ? (MISSING_REASON[missing.reason] ?? missing.reason) : 'Unknown'}</dd>
        </div>
        <div>
          <dt>HTTP status</dt>
          <dd>{evidence.status ?? 'none (no response)'}</dd>
        </div>
      </dl>
      {missing?.message ? <p className="missing-message">{missing.message}</p> : null}
      <p className="small">Nothing was captured or scanned on this side: this is not a clean page.</p>
    </div>
  );
}

function TextDiff({ artifact }: { artifact: Artifact }) {
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

function ValueRow({
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

function RequiredSelector({ artifact, selector }: { artifact: Artifact; selector: string | null }) {
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

function Findings({ artifact }: { artifact: Artifact }) {
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
function MovesOnItsOwn({ artifact }: { artifact: Artifact }) {
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
