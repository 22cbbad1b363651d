import { formatDateTime, plural } from '../format';
import { useAllMonitors } from '../hooks/useAllMonitors';
import type { Report } from '../types';
import { periodText, REPORT_FORMATS, REPORT_TYPES } from './ReportBits';

export function ReportFacts({ report }: { report: Report }) {
  const monitors = useAllMonitors(report.monitor_ids.length > 0);
  const named = new Map((monitors.data ?? []).map((monitor) => [monitor.id, monitor.name]));
  const covers = REPORT_TYPES.find((item) => item.value === report.type)!.covers;
  let which: string;
  if (report.type === 'release_checks') which = 'Every release check';
  else if (report.monitor_ids.length === 0) which = 'Every monitor of the workspace when generated';
  else if (monitors.error) which = plural(report.monitor_ids.length, 'monitor');
  else which = report.monitor_ids.map((monitorId) => named.get(monitorId) ?? '…').join(', ');
  return (
    <dl className="meta-grid report-facts">
      <div>
        <dt>Covers</dt>
        <dd>{covers.charAt(0).toUpperCase() + covers.slice(1)}</dd>
      </div>
      <div>
        <dt>{report.type === 'release_checks' ? 'Release checks' : 'Monitors'}</dt>
        <dd>{which}</dd>
      </div>
      <div>
        <dt>Period</dt>
        <dd>{periodText(report.period)}</dd>
      </div>
      <div>
        <dt>Format</dt>
        <dd>{REPORT_FORMATS.find((item) => item.value === report.format)!.label}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{formatDateTime(report.created_at)}</dd>
      </div>
    </dl>
  );
}
