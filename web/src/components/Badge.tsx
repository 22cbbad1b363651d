import type { ReactNode } from 'react';
import type { CollectionStatus, Gate, ReviewStatus } from '../types';

const GATE: Record<Gate, { label: string; tone: string }> = {
  pending: { label: 'Pending', tone: 'warning' },
  passed: { label: 'Passed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

const COLLECTION: Record<CollectionStatus, { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'info' },
  running: { label: 'Collecting', tone: 'info' },
  completed: { label: 'Complete', tone: 'neutral' },
  incomplete: { label: 'Incomplete', tone: 'danger' },
};

const REVIEW: Record<ReviewStatus, { label: string; tone: string }> = {
  awaiting_review: { label: 'Awaiting review', tone: 'warning' },
  approved: { label: 'Approved', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'danger' },
  cannot_approve: { label: 'Cannot be approved', tone: 'danger' },
};

export function Badge({ tone, children, title }: { tone: string; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function GateBadge({ gate }: { gate: Gate }) {
  const { label, tone } = GATE[gate];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Gate: </span>
      {label}
    </Badge>
  );
}

export function CollectionBadge({ status }: { status: CollectionStatus }) {
  const { label, tone } = COLLECTION[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Collection: </span>
      {label}
    </Badge>
  );
}

export function ReviewBadge({ status }: { status: ReviewStatus }) {
  const { label, tone } = REVIEW[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Review: </span>
      {label}
    </Badge>
  );
}
