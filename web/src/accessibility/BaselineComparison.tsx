import { FindingList } from '../components/FindingList';
import { formatDateTime } from '../format';
import { Link } from '../router';
import type { A11yReport } from '../types';

export function Comparison({ report }: { report: A11yReport }) {
  const { comparison, baseline } = report;
  if (!comparison) {
    return (
      <section aria-labelledby="comparison-heading" className="card">
        <h2 id="comparison-heading">Compared with the baseline</h2>
        <p className="muted">
          {baseline
            ? 'Not compared yet.'
            : 'This monitor has no baseline yet: attest a scan to compare later ones with it.'}
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="comparison-heading" className="card">
      <h2 id="comparison-heading">Compared with the baseline</h2>
      {comparison.engine_version_mismatch ? (
        <p className="alert alert-warning">
          The baseline was scanned with another axe-core version ({baseline?.axe_version}); the counts are not directly
          comparable.
        </p>
      ) : null}
      <p className="small muted">
        Matched by rule, viewport and element on {comparison.viewports.join(' and ') || 'no common viewport'}.{' '}
        {comparison.new.length} new, {comparison.fixed.length} fixed, {comparison.unchanged} unchanged; needs review:{' '}
        {comparison.needs_review.new.length} new, {comparison.needs_review.fixed.length} resolved,{' '}
        {comparison.needs_review.unchanged} unchanged.
      </p>
      <h3>New ({comparison.new.length})</h3>
      {comparison.new.length ? <FindingList showViewport findings={comparison.new} /> : <p>No new violations.</p>}
      <h3>Fixed ({comparison.fixed.length})</h3>
      {comparison.fixed.length ? <FindingList showViewport findings={comparison.fixed} /> : <p>None fixed.</p>}
      {comparison.needs_review.new.length ? (
        <>
          <h3>New to review ({comparison.needs_review.new.length})</h3>
          <FindingList showViewport findings={comparison.needs_review.new} />
        </>
      ) : null}
    </section>
  );
}

export function BaselineCard({ report }: { report: A11yReport }) {
  const { baseline } = report;
  return (
    <section aria-labelledby="baseline-heading" className="card">
      <h2 id="baseline-heading">Baseline</h2>
      {baseline ? (
        <>
          <p>
            {baseline.scan_id === report.scan.id ? (
              'This scan is the baseline'
            ) : (
              <Link to={`/accessibility/scans/${baseline.scan_id}`}>The baseline scan</Link>
            )}
            , attested by <strong>{baseline.attested_by?.email ?? 'someone no longer in Vigil'}</strong> on{' '}
            <time dateTime={baseline.attested_at}>{formatDateTime(baseline.attested_at)}</time> (axe-core{' '}
            {baseline.axe_version}).
          </p>
          <blockquote className="decision-note">{baseline.note}</blockquote>
        </>
      ) : (
        <p className="muted">No baseline yet: the monitor’s first attested scan becomes its baseline.</p>
      )}
    </section>
  );
}
