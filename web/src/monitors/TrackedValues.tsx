import { useApi } from '../hooks/useApi';

import { ResourceView } from '../components/ResourceView';
import { TimeLineChart } from '../charts/charts';
import { formatDateTime, plural } from '../format';
import type { Monitor, TrackedValue, TrackedValueSpec } from '../types';

const readingLabel = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

export function TrackedValues({ monitor }: { monitor: Monitor }) {
  if (monitor.tracked_values.length === 0) return null;
  return (
    <section aria-labelledby="tracked-heading" className="card">
      <h2 id="tracked-heading">Tracked values</h2>
      {monitor.tracked_values.map((spec) => (
        <TrackedValueView key={spec.name} monitor={monitor} spec={spec} />
      ))}
    </section>
  );
}

function readingText(reading: TrackedValue): string {
  if (reading.raw === null) return 'not found on the page';
  return reading.raw;
}

function TrackedValueView({ monitor, spec }: { monitor: Monitor; spec: TrackedValueSpec }) {
  const id = monitor.id;
  const readings = useApi(
    '/monitors/{id}/tracked-values',
    { params: { path: { id }, query: { name: spec.name, per_page: 50 } } },
    { reloadOn: monitor.last_checked_at },
  );
  return (
    <div className="tracked-value">
      <h3>
        {spec.name} <span className="muted small">({spec.kind})</span>
      </h3>
      <p className="small muted">
        <code className="value">{spec.selector}</code>
      </p>
      <ResourceView resource={readings} loadingText={`Loading ${spec.name}…`}>
        {(list) => {
          const newest = list.data[0];
          if (!newest) return <p className="muted">Not read yet: the next check reads it.</p>;
          const points = list.data
            .filter((reading) => reading.amount !== null)
            .map((reading) => ({ t: reading.captured_at, value: reading.amount! }))
            .reverse();
          const currency = newest.currency ?? '';
          const format = (value: number) => `${currency ? `${currency} ` : ''}${value.toLocaleString()}`;
          return (
            <>
              <p className="tracked-latest">
                Latest: <strong>{readingText(newest)}</strong>{' '}
                <span className="small muted">
                  ({newest.region}, {formatDateTime(newest.captured_at)})
                </span>
              </p>
              {spec.kind !== 'text' && points.length > 1 ? (
                <TimeLineChart
                  caption={`${spec.name} over its last ${plural(points.length, 'reading')}`}
                  unit={spec.name}
                  points={points}
                  format={format}
                  fromZero={false}
                  timeLabel={(date) => readingLabel.format(date)}
                  summary={`${spec.name} went from ${format(points[0].value)} to ${format(points[points.length - 1].value)}; lowest ${format(Math.min(...points.map((point) => point.value)))}, highest ${format(Math.max(...points.map((point) => point.value)))}.`}
                />
              ) : null}
            </>
          );
        }}
      </ResourceView>
    </div>
  );
}
