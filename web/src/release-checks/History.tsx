import { formatDateTime, plural } from '../format';
import type { ReviewRecord } from '../types';

export function History({ history }: { history: ReviewRecord[] }) {
  const ordered = [...history].sort((a, b) => b.decided_at.localeCompare(a.decided_at));
  return (
    <section aria-labelledby="history-heading" className="card history">
      <h2 id="history-heading">Decision history</h2>
      {ordered.length === 0 ? (
        <p className="muted">No decisions recorded yet.</p>
      ) : (
        <ol className="history-list">
          {ordered.map((record) => (
            <li key={`${record.revision}-${record.decided_at}`} className={`history-item decision-${record.decision}`}>
              <p>
                <strong>{record.decision === 'approve' ? 'Approved' : 'Rejected'}</strong> revision {record.revision} by{' '}
                {record.reviewer.email}
              </p>
              <p className="small muted">
                <time dateTime={record.decided_at}>{formatDateTime(record.decided_at)}</time> ·{' '}
                {plural(record.scope.pages.length, 'page')} × {record.scope.viewports.join(', ')}
              </p>
              <blockquote className="decision-note">{record.note}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
