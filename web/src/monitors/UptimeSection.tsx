import { useState } from 'react';
import { api, ok } from '../api';
import { TimeLineChart, UptimeBarChart } from '../charts/charts';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { ResourceView } from '../components/ResourceView';
import { formatMs, formatUptime, plural } from '../format';
import { useResource } from '../hooks/useResource';
import type { Monitor, Uptime, UptimeWindow } from '../types';

const WINDOWS: { value: UptimeWindow; label: string }[] = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
];

const hourLabel = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayHourLabel = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit' });
const dayLabel = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

const TIME_LABEL: Record<UptimeWindow, (date: Date) => string> = {
  '24h': (date) => hourLabel.format(date),
  '7d': (date) => dayHourLabel.format(date),
  '30d': (date) => dayLabel.format(date),
};

/** Uptime per region and overall, with the response-time chart of the chosen window. */
export function UptimeSection({ monitor }: { monitor: Monitor }) {
  const [history, setHistory] = useState<UptimeWindow>('24h');
  const id = monitor.id;
  const regions = monitor.regions;
  // One request per region and one for all together: read again after each check, as their figures move with it.
  const uptime = useResource([id, history, regions, monitor.last_checked_at], async (signal) => {
    const one = (region: string | undefined) =>
      ok(api.GET('/monitors/{id}/uptime', { params: { path: { id }, query: { region, history } }, signal }));
    const [overall, ...perRegion] = await Promise.all([one(undefined), ...regions.map((region) => one(region))]);
    return { overall, perRegion };
  });

  const rows: { label: string; figures: Uptime }[] = uptime.data
    ? [
        { label: 'All regions', figures: uptime.data.overall },
        ...uptime.data.perRegion.map((figures) => ({ label: figures.region ?? '?', figures })),
      ]
    : [];
  const windowLabel = WINDOWS.find((item) => item.value === history)!.label.toLowerCase();

  return (
    <section aria-labelledby="uptime-heading" className="card">
      <h2 id="uptime-heading">Uptime and response time</h2>
      <ResourceView resource={uptime} loadingText="Loading uptime…">
        {(data) => (
          <>
            <DataTable
              label="Uptime by region"
              caption="Uptime by region over 24 hours, 7 days and 30 days"
              className="uptime-table"
              rows={rows}
              rowKey={(row) => row.label}
              columns={[
                { header: 'Region', rowHeader: true, cell: (row) => row.label },
                ...(['24h', '7d', '30d'] as const).map((window) => ({
                  header: { '24h': '24 h', '7d': '7 d', '30d': '30 d' }[window],
                  cell: (row: (typeof rows)[number]) => (
                    <>
                      {formatUptime(row.figures.uptime[window])}
                      <span className="block small muted">{plural(row.figures.checks[window], 'check')}</span>
                    </>
                  ),
                })),
              ]}
            />
            <div className="chart-grid">
              <UptimeBarChart
                caption="Uptime by window, all regions"
                bars={[
                  { label: '24 hours', value: data.overall.uptime['24h'] },
                  { label: '7 days', value: data.overall.uptime['7d'] },
                  { label: '30 days', value: data.overall.uptime['30d'] },
                ]}
                summary={`Uptime over all regions: ${formatUptime(data.overall.uptime['24h'])} over 24 hours, ${formatUptime(data.overall.uptime['7d'])} over 7 days, ${formatUptime(data.overall.uptime['30d'])} over 30 days.`}
              />
              <div>
                <SelectField
                  id="response-window"
                  label="Response times over"
                  className="field-inline"
                  value={history}
                  onChange={setHistory}
                  options={WINDOWS}
                />
                {data.overall.response_times.length === 0 ? (
                  <p className="muted">No checks in the {windowLabel}.</p>
                ) : (
                  <TimeLineChart
                    caption={`Average response time, ${windowLabel}, all regions`}
                    unit="Average response time"
                    points={data.overall.response_times.map((point) => ({ t: point.t, value: point.ms }))}
                    format={formatMs}
                    timeLabel={TIME_LABEL[history]}
                    summary={responseSummary(data.overall, windowLabel)}
                  />
                )}
              </div>
            </div>
          </>
        )}
      </ResourceView>
    </section>
  );
}

function responseSummary(uptime: Uptime, windowLabel: string): string {
  const values = uptime.response_times.map((point) => point.ms);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return `Over the ${windowLabel}, ${plural(values.length, uptime.history === '30d' ? 'day' : 'hour')} with checks: fastest ${formatMs(Math.min(...values))}, slowest ${formatMs(Math.max(...values))}, mean ${formatMs(mean)}.`;
}
