import { Badge } from '../components/Badge';
import type { CrawlStatus, CrawlSummary } from '../types';

/** A crawl in progress is read again this often: pages appear as they are found. */
export const POLL_MS = 1_500;

const STATUS: Record<CrawlStatus, { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'info' },
  running: { label: 'Crawling', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

export const inProgress = (crawl: Pick<CrawlSummary, 'status'>) =>
  crawl.status === 'queued' || crawl.status === 'running';

export function CrawlStatusBadge({ status }: { status: CrawlStatus }) {
  const { label, tone } = STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Crawl: </span>
      {label}
    </Badge>
  );
}
