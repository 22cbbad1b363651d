import { stringify } from 'csv-stringify/sync';
import { escapeUTF8 as html } from 'entities';
import type { ReportCell, ReportDailyUptime, ReportDocument } from './dto/reports.dto';
import type { ReportFormat } from './entities/report.entity';

export const REPORT_MEDIA_TYPES: Record<ReportFormat, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
};

/** The JSON file: the document as is. */
export const reportJson = (document: ReportDocument): Buffer => Buffer.from(JSON.stringify(document, null, 2));

/**
 * The CSV file: a header row of column titles, then the rows. Cells that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, carriage return first) are prefixed with a quote, as exports are.
 */
export function reportCsv(document: ReportDocument): Buffer {
  return Buffer.from(
    stringify(document.rows, {
      header: true,
      columns: document.columns.map(({ key, title }) => ({ key, header: title })),
      cast: { boolean: String },
      escape_formulas: true,
    }),
  );
}

const cell = (value: ReportCell): string => (value === null ? '—' : html(String(value)));

/** Daily uptime and average response time over all the report's monitors, one point per UTC day. */
function dailyTotals(daily: ReportDailyUptime[]) {
  const days = new Map<string, { checks: number; passed: number; msWeighted: number }>();
  for (const day of daily) {
    const total = days.get(day.date) ?? { checks: 0, passed: 0, msWeighted: 0 };
    total.checks += day.checks;
    total.passed += day.uptime === null ? 0 : (day.uptime / 100) * day.checks;
    total.msWeighted += (day.avg_response_ms ?? 0) * day.checks;
    days.set(day.date, total);
  }
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, total]) => ({
      date,
      uptime: total.checks ? (total.passed / total.checks) * 100 : null,
      ms: total.checks ? total.msWeighted / total.checks : null,
    }));
}

/** A bar chart of `values` (one bar per day), labelled for screen readers and readers of the printed page. */
function barChart(
  title: string,
  points: { date: string; value: number | null }[],
  max: number,
  format: (value: number) => string,
): string {
  const width = 700;
  const height = 140;
  const bar = width / Math.max(points.length, 1);
  const bars = points
    .map((point, index) => {
      if (point.value === null) return '';
      const barHeight = Math.max(1, (point.value / max) * (height - 20));
      return (
        `<rect x="${(index * bar + 1).toFixed(1)}" y="${(height - barHeight).toFixed(1)}" ` +
        `width="${Math.max(bar - 2, 1).toFixed(1)}" height="${barHeight.toFixed(1)}" fill="#2e6fd8">` +
        `<title>${html(point.date)}: ${html(format(point.value))}</title></rect>`
      );
    })
    .join('');
  const first = points[0]?.date ?? '';
  const last = points.at(-1)?.date ?? '';
  return `<figure>
  <figcaption>${html(title)}</figcaption>
  <svg viewBox="0 0 ${width} ${height + 16}" width="100%" role="img" aria-label="${html(title)}">
    <line x1="0" y1="${height}" x2="${width}" y2="${height}" stroke="#999" stroke-width="1"/>
    ${bars}
    <text x="0" y="${height + 14}" font-size="10" fill="#444">${html(first)}</text>
    <text x="${width}" y="${height + 14}" font-size="10" fill="#444" text-anchor="end">${html(last)}</text>
    <text x="0" y="10" font-size="10" fill="#444">${html(format(max))}</text>
  </svg>
</figure>`;
}

function charts(daily: ReportDailyUptime[] | undefined): string {
  if (!daily?.length) return '';
  const days = dailyTotals(daily);
  const slowest = Math.max(...days.map((day) => day.ms ?? 0), 1);
  return (
    barChart(
      'Daily uptime, all monitors (%)',
      days.map((day) => ({ date: day.date, value: day.uptime })),
      100,
      (value) => `${value.toFixed(2)} %`,
    ) +
    barChart(
      'Daily average response time, all monitors (ms)',
      days.map((day) => ({ date: day.date, value: day.ms })),
      slowest,
      (value) => `${Math.round(value)} ms`,
    )
  );
}

/** The PDF's HTML: self-contained (inline CSS and SVG), rendered by Chromium with scripts and network off. */
export function reportHtml(document: ReportDocument): string {
  const head = document.columns.map((column) => `<th scope="col">${html(column.title)}</th>`).join('');
  const body = document.rows
    .map((row) => `<tr>${document.columns.map((column) => `<td>${cell(row[column.key] ?? null)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${html(document.report.name)}</title>
<style>
  body { font: 10pt/1.4 "DejaVu Sans", Arial, sans-serif; color: #1a1a1a; }
  h1 { font-size: 16pt; margin: 0 0 4pt; }
  .meta, .method { color: #444; margin: 0 0 6pt; }
  figure { margin: 10pt 0; page-break-inside: avoid; }
  figcaption { font-weight: bold; margin-bottom: 4pt; }
  table { width: 100%; border-collapse: collapse; margin-top: 10pt; font-size: 8pt; }
  th, td { border-bottom: 1px solid #ccc; padding: 3pt 4pt; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
  th { background: #f0f0f0; }
  tr { page-break-inside: avoid; }
</style>
</head>
<body>
  <h1>${html(document.report.name)}</h1>
  <p class="meta">${html(document.report.type.replace('_', ' '))} report · ${html(document.period.from)} to ${html(document.period.to)} (UTC) · generated ${html(document.generated_at)}</p>
  <p class="method">${html(document.method)}</p>
  ${charts(document.daily)}
  <table>
    <thead><tr>${head}</tr></thead>
    <tbody>
${body || `<tr><td colspan="${document.columns.length}">Nothing in this period.</td></tr>`}
    </tbody>
  </table>
</body>
</html>
`;
}
