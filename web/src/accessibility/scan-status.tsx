import { Badge } from '../components/Badge';
import type { A11yScan, A11yScanStatus } from '../types';

/** A scan in progress is read again this often. */
export const POLL_MS = 2_000;

const STATUS: Record<A11yScanStatus, { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'info' },
  running: { label: 'Scanning', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

export const inProgress = (scan: Pick<A11yScan, 'status'>) => scan.status === 'queued' || scan.status === 'running';

export function ScanStatusBadge({ status }: { status: A11yScanStatus }) {
  const { label, tone } = STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Scan: </span>
      {label}
    </Badge>
  );
}
