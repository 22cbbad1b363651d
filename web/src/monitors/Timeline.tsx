import { useState } from 'react';
import { Badge } from '../components/Badge';
import { ChangeScreenshots, FeedbackBadges, SummarySource, ValueMove } from '../components/ChangeBits';
import { PagedList } from '../components/ResourceView';
import { formatDateTime } from '../format';
import { useApi } from '../hooks/useApi';
import { Link } from '../router';
import type { Monitor } from '../types';

/** The monitor's changes, newest first, with the screenshots of browser monitors. */
export function Timeline({ monitor }: { monitor: Monitor }) {
  const [page, setPage] = useState(1);
  const id = monitor.id;
  const timeline = useApi(
    '/monitors/{id}/timeline',
    { params: { path: { id }, query: { page, per_page: 10 } } },
    { reloadOn: monitor.last_checked_at },
  );
  return (
    <section aria-labelledby="timeline-heading" className="card">
      <h2 id="timeline-heading">Timeline of changes</h2>
      <PagedList
        resource={timeline}
        loadingText="Loading changes…"
        pagesLabel="Timeline pages"
        onPage={setPage}
        empty={
          <p className="muted">No changes yet: Vigil records one when the watched text or a tracked value moves.</p>
        }
      >
        {(changes) => (
          <ol className="timeline">
            {changes.map((change) => (
              <li key={change.id} className="timeline-item">
                <p className="timeline-when">
                  <time dateTime={change.detected_at}>{formatDateTime(change.detected_at)}</time>
                  <span className="muted"> · {change.region}</span>
                </p>
                <p className="timeline-summary">
                  <Link to={`/changes/${change.id}`}>{change.summary.text}</Link>
                </p>
                <p className="check-badges">
                  <Badge tone="neutral">{change.kind === 'value' ? 'Value' : 'Content'}</Badge>
                  <SummarySource source={change.summary.source} />
                  <FeedbackBadges change={change} />
                </p>
                {change.value ? <ValueMove value={change.value} /> : null}
                {change.before_screenshot_url || change.after_screenshot_url ? (
                  <ChangeScreenshots
                    change={change}
                    className="screenshots timeline-shots"
                    alt={(label) => `${label} the change of ${formatDateTime(change.detected_at)}`}
                  />
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </PagedList>
    </section>
  );
}
