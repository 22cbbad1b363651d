import { useState } from 'react';
import type { ReactNode } from 'react';
import { AuthImage } from '../components/AuthImage';
import { formatPercent } from '../format';
import type { Artifact, CaptureSide } from '../types';
import { MISSING_REASON, pairLabel, SIDE_LABEL, type SideName } from './artifact-labels';

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
export function Screenshots({ artifact }: { artifact: Artifact }) {
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
