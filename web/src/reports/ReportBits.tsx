import { api } from '../api';
import { Badge } from '../components/Badge';
import type { Report, ReportFormat, ReportPeriod, ReportRun, ReportRunStatus, ReportType } from '../types';

/** A run in progress is read again this often. */
export const POLL_MS = 1_500;

export const REPORT_TYPES: { value: ReportType; label: string; covers: string }[] = [
  { value: 'uptime', label: 'Uptime', covers: 'checks, uptime and response times per monitor, and per day' },
  { value: 'changes', label: 'Changes', covers: 'the changes detected on the monitors' },
  { value: 'accessibility', label: 'Accessibility', covers: 'the completed accessibility scans and their findings' },
  { value: 'release_checks', label: 'Release checks', covers: 'the release checks opened, their gate and review' },
];

export const REPORT_FORMATS: { value: ReportFormat; label: string }[] = [
  { value: 'pdf', label: 'PDF (to read and print)' },
  { value: 'csv', label: 'CSV (for a spreadsheet)' },
  { value: 'json', label: 'JSON (for a program)' },
];

export type PresetName = Extract<ReportPeriod, { preset: string }>['preset'];

export const PERIOD_PRESETS: { value: PresetName; label: string }[] = [
  { value: 'last_7_days', label: 'Last 7 days' },
  { value: 'last_30_days', label: 'Last 30 days' },
  { value: 'last_month', label: 'Last calendar month' },
];

export const reportTypeLabel = (type: ReportType) => REPORT_TYPES.find((item) => item.value === type)!.label;
export const reportFormatName = (format: ReportFormat) => format.toUpperCase();

const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const DAY_MS = 86_400_000;

/** A report's period in words: its preset, or its first and last UTC days. */
export function periodText(period: ReportPeriod): string {
  if ('preset' in period) return PERIOD_PRESETS.find((item) => item.value === period.preset)!.label;
  const from = new Date(period.from);
  const last = new Date(Date.parse(period.to) - 1);
  return `${utcDay.format(from)} to ${utcDay.format(last)} (UTC)`;
}

/** `{from, to}` for whole UTC days, the last one included (what the date fields of the form mean). */
export function dayRange(first: string, last: string): { from: string; to: string } {
  const to = new Date(Date.parse(`${last}T00:00:00Z`) + DAY_MS);
  return { from: `${first}T00:00:00Z`, to: to.toISOString().replace('.000Z', 'Z') };
}

const RUN_STATUS: Record<ReportRunStatus, { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'info' },
  generating: { label: 'Generating', tone: 'info' },
  ready: { label: 'Ready', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

export const runInProgress = (run: Pick<ReportRun, 'status'>) => run.status === 'queued' || run.status === 'generating';

export function RunStatusBadge({ status }: { status: ReportRunStatus }) {
  const { label, tone } = RUN_STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Run: </span>
      {label}
    </Badge>
  );
}

/** The report's latest run, if any (runs come newest first). */
export const latestRun = (report: Pick<Report, 'runs'>): ReportRun | undefined => report.runs[0];

/** The file name a `Content-Disposition` header gives (RFC 6266: `filename*` first), if any. */
function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // Fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;]+)/i.exec(header);
  return plain ? (plain[1] ?? plain[2]).replace(/\\(.)/g, '$1').trim() : null;
}

/**
 * Downloads a run's file. The download needs the session's token, so a plain link cannot fetch it: the typed client
 * reads it as a blob (a refusal becomes a ProblemError like any other call's), and a link to an object URL saves it
 * under the name the API gave. Answers that name and the size.
 */
export async function downloadRun(report: Pick<Report, 'id' | 'name' | 'format'>, run: ReportRun) {
  const { data, response } = await api.GET('/reports/{id}/runs/{run_id}/download', {
    params: { path: { id: report.id, run_id: run.id } },
    parseAs: 'blob',
  });
  const file = data as Blob;
  const fileName =
    attachmentName(response.headers.get('Content-Disposition')) ?? `${report.name}-${run.id}.${report.format}`;
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob when the download starts; the URL is released a little later.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return { fileName, size: file.size };
}
