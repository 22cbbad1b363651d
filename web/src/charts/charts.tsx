import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear, scaleTime } from '@visx/scale';
import { Bar, LinePath } from '@visx/shape';
import { type ReactNode, useId } from 'react';

/*
 * Charts are SVG drawn with visx primitives: the markup is ours, so each chart is one image with a title and a
 * description that says what it shows, and the figures are also in a table that a screen reader (or anyone) can read.
 * The SVG scales with its box (a viewBox, width 100%), so it never makes a phone's page scroll sideways.
 */

const WIDTH = 640;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 36, left: 56 };
const INNER_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const INNER_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;
const INK = '#1e3a8a';
const GRID = '#d5dbe4';
const AXIS = '#4f5b6d';

const tickLabel = () => ({ fill: AXIS, fontSize: 12, fontFamily: 'system-ui, sans-serif' });
const leftTickLabel = () => ({ ...tickLabel(), textAnchor: 'end' as const, dx: -4, dy: 4 });

function uniqueBy<T>(items: T[], label: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = label(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A chart and its data table, under one caption: the SVG (a labelled, described image), its horizontal grid at
 * `gridTicks`, and the plot drawn inside the margins.
 */
function ChartFigure({
  caption,
  summary,
  table,
  gridTicks,
  y,
  children,
}: {
  caption: string;
  summary: string;
  table: ReactNode;
  gridTicks: number[];
  y: (value: number) => number | undefined;
  children: ReactNode;
}) {
  const id = useId();
  const ids = { title: `${id}-title`, desc: `${id}-desc` };
  return (
    <figure className="chart">
      <figcaption className="chart-caption">{caption}</figcaption>
      <svg
        className="chart-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={ids.title}
        aria-describedby={ids.desc}
      >
        <title id={ids.title}>{caption}</title>
        <Group left={MARGIN.left} top={MARGIN.top}>
          {gridTicks.map((tick) => (
            <line key={tick} x1={0} x2={INNER_WIDTH} y1={y(tick)} y2={y(tick)} stroke={GRID} />
          ))}
          {children}
        </Group>
      </svg>
      <p id={ids.desc} className="chart-summary small muted">
        {summary}
      </p>
      <details className="chart-data">
        <summary>Show the figures as a table</summary>
        {table}
      </details>
    </figure>
  );
}

export interface TimePoint {
  /** ISO date-time. */
  t: string;
  value: number;
}

/** A line over time (response times, a tracked value), with a time axis and a value axis. */
export function TimeLineChart({
  caption,
  points,
  unit,
  format,
  summary,
  timeLabel,
  fromZero = true,
}: {
  caption: string;
  points: TimePoint[];
  /** The value axis starts at zero (times); off, it spans the values (a price that moves by a little). */
  fromZero?: boolean;
  /** The value axis's label. */
  unit: string;
  format: (value: number) => string;
  summary: string;
  timeLabel: (date: Date) => string;
}) {
  const data = points.map((point) => ({ date: new Date(point.t), value: point.value }));
  const times = data.map((point) => point.date.getTime());
  const values = data.map((point) => point.value);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const x = scaleTime({
    domain: [new Date(first), new Date(last === first ? first + 3_600_000 : last)],
    range: [0, INNER_WIDTH],
  });
  const top = Math.max(...values, ...(fromZero ? [0] : []));
  const bottom = Math.min(...values, ...(fromZero ? [0] : []));
  const pad = top === bottom ? Math.max(Math.abs(top) * 0.1, 1) : fromZero ? 0 : (top - bottom) * 0.1;
  const y = scaleLinear({
    domain: [fromZero ? bottom : bottom - pad, top + (top === bottom || !fromZero ? pad : 0)],
    range: [INNER_HEIGHT, 0],
    nice: true,
  });
  // One tick per distinct label: a day's hours all read "Nov 24" on a 30-day axis.
  const timeTicks = uniqueBy(x.ticks(5), (date) => timeLabel(date));
  const valueTicks = uniqueBy(y.ticks(4), format);

  return (
    <ChartFigure
      caption={caption}
      gridTicks={valueTicks}
      y={y}
      summary={summary}
      table={
        <table className="table table-compact">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">{unit}</th>
            </tr>
          </thead>
          <tbody>
            {data.map((point) => (
              <tr key={point.date.toISOString()}>
                <th scope="row">{timeLabel(point.date)}</th>
                <td>{format(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <LinePath
        data={data}
        x={(point) => x(point.date)}
        y={(point) => y(point.value)}
        stroke={INK}
        strokeWidth={2}
        fill="none"
      />
      {data.length <= 60
        ? data.map((point) => (
            <circle key={point.date.toISOString()} cx={x(point.date)} cy={y(point.value)} r={3} fill={INK} />
          ))
        : null}
      <AxisLeft
        scale={y}
        tickValues={valueTicks}
        tickFormat={(value) => format(Number(value))}
        stroke={AXIS}
        tickStroke={AXIS}
        tickLabelProps={leftTickLabel}
      />
      <AxisBottom
        top={INNER_HEIGHT}
        scale={x}
        tickValues={timeTicks}
        tickFormat={(value) => timeLabel(value instanceof Date ? value : new Date(Number(value)))}
        stroke={AXIS}
        tickStroke={AXIS}
        tickLabelProps={() => ({ ...tickLabel(), textAnchor: 'middle' })}
      />
    </ChartFigure>
  );
}

export interface BarDatum {
  label: string;
  /** A percentage, 0–100; null is "no checks", drawn as an empty slot. */
  value: number | null;
}

/** Uptime as bars, one per label (a window or a region), 0–100 %. */
export function UptimeBarChart({ caption, bars, summary }: { caption: string; bars: BarDatum[]; summary: string }) {
  const x = scaleBand({ domain: bars.map((bar) => bar.label), range: [0, INNER_WIDTH], padding: 0.3 });
  const y = scaleLinear({ domain: [0, 100], range: [INNER_HEIGHT, 0] });
  const percent = (value: number | null) => (value === null ? 'no checks' : `${value.toFixed(2)}%`);

  return (
    <ChartFigure
      caption={caption}
      gridTicks={[0, 25, 50, 75, 100]}
      y={y}
      summary={summary}
      table={
        <table className="table table-compact">
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">Uptime</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label}>
                <th scope="row">{bar.label}</th>
                <td>{percent(bar.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      {bars.map((bar) => {
        const left = x(bar.label) ?? 0;
        if (bar.value === null) {
          return (
            <Bar
              key={bar.label}
              x={left}
              y={0}
              width={x.bandwidth()}
              height={INNER_HEIGHT}
              fill="none"
              stroke={GRID}
              strokeDasharray="4 4"
            />
          );
        }
        const tone = bar.value >= 99 ? '#166534' : bar.value >= 95 ? '#854d0e' : '#b91c1c';
        return (
          <Bar
            key={bar.label}
            x={left}
            y={y(bar.value)}
            width={x.bandwidth()}
            height={INNER_HEIGHT - y(bar.value)}
            fill={tone}
          />
        );
      })}
      <AxisLeft
        scale={y}
        tickValues={[0, 50, 100]}
        tickFormat={(value) => `${Number(value)}%`}
        stroke={AXIS}
        tickStroke={AXIS}
        tickLabelProps={leftTickLabel}
      />
      <AxisBottom
        top={INNER_HEIGHT}
        scale={x}
        stroke={AXIS}
        tickStroke={AXIS}
        tickLabelProps={() => ({ ...tickLabel(), textAnchor: 'middle' })}
      />
    </ChartFigure>
  );
}
