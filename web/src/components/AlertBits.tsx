import { formatMs } from '../format';
import { Link } from '../router';
import type { AlertDestination, DeliveryStatus, DestinationTestResult, DestinationType, EventType } from '../types';
import { Badge } from './Badge';

/** Every event type, in words (openapi.yaml `EventType`). */
export const EVENT_LABEL: Record<EventType, string> = {
  'monitor.down': 'Monitor down',
  'monitor.recovered': 'Monitor recovered',
  'change.detected': 'Change detected',
  'value.changed': 'Tracked value changed',
  'release_check.started': 'Release check started',
  'release_check.completed': 'Release check completed',
  'release_check.reviewed': 'Release check reviewed',
  'a11y_scan.completed': 'Accessibility scan completed',
  'crawl.completed': 'Crawl completed',
  'certificate.expiring': 'Certificate expiring',
  'certificate.renewed': 'Certificate renewed',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  ping: 'Test ping',
};

export const EVENT_TYPES = Object.keys(EVENT_LABEL) as EventType[];

/** What a destination can subscribe to workspace-wide (a ping is only ever a test). */
export const WORKSPACE_EVENTS: { event: EventType; sends: string }[] = [
  { event: 'monitor.down', sends: 'any monitor of the workspace going down (rules send theirs anyway)' },
  { event: 'monitor.recovered', sends: 'any monitor coming back up' },
  { event: 'change.detected', sends: 'every change detected on any monitor' },
  { event: 'value.changed', sends: 'every change of a tracked value (a price, a stock level…)' },
  {
    event: 'certificate.expiring',
    sends: 'each certificate a certificate_expiry rule finds close to expiry (rules send theirs anyway)',
  },
  { event: 'certificate.renewed', sends: 'each renewed certificate that ends such an alert' },
  { event: 'release_check.started', sends: 'each release check as it is opened or rerun' },
  { event: 'release_check.completed', sends: 'each release check once its evidence is collected' },
  { event: 'release_check.reviewed', sends: 'each approval or rejection of a release check' },
  { event: 'a11y_scan.completed', sends: 'each accessibility scan that finishes' },
  { event: 'crawl.completed', sends: 'each crawl that ends' },
  { event: 'maintenance.started', sends: 'each occurrence of a maintenance window as it begins' },
  { event: 'maintenance.ended', sends: 'each occurrence of a maintenance window as it ends' },
];

export const DESTINATION_TYPE_LABEL: Record<DestinationType, string> = {
  webhook: 'Webhook',
  slack: 'Slack',
  email: 'E-mail',
};

const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; tone: string }> = {
  pending: { label: 'Pending', tone: 'info' },
  retrying: { label: 'Retrying', tone: 'warning' },
  succeeded: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

export const DELIVERY_STATUSES = Object.keys(DELIVERY_STATUS) as DeliveryStatus[];
export const deliveryStatusLabel = (status: DeliveryStatus) => DELIVERY_STATUS[status].label;

/** Deliveries with attempts still to make are read again this often. */
export const DELIVERY_POLL_MS = 2_000;

/** A delivery still has attempts to make. */
export const deliveryInProgress = (delivery: { status: DeliveryStatus }) =>
  delivery.status === 'pending' || delivery.status === 'retrying';

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { label, tone } = DELIVERY_STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Delivery: </span>
      {label}
    </Badge>
  );
}

/** Where a destination sends: its URL, or its addresses. */
export function destinationTarget(destination: Pick<AlertDestination, 'type' | 'config'>): string {
  switch (destination.type) {
    case 'webhook':
      return destination.config.url ?? '';
    case 'slack':
      return destination.config.webhook_url ?? '';
    case 'email':
      return (destination.config.to ?? []).join(', ');
  }
}

/** The Alerts section's own menu: destinations and the delivery log. */
export function AlertsTabs({ current }: { current: 'destinations' | 'deliveries' }) {
  return (
    <nav aria-label="Alerts" className="subnav">
      <ul>
        <li>
          <Link to="/alerts" aria-current={current === 'destinations' ? 'page' : undefined}>
            Destinations
          </Link>
        </li>
        <li>
          <Link to="/alerts/deliveries" aria-current={current === 'deliveries' ? 'page' : undefined}>
            Delivery log
          </Link>
        </li>
      </ul>
    </nav>
  );
}

/** What the receiver answered to a test ping, in words, with the start of its answer. */
export function TestResultView({ name, result }: { name: string; result: DestinationTestResult }) {
  const status = result.response_status === null ? null : `HTTP ${result.response_status}`;
  return (
    <div className={`alert ${result.delivered ? 'alert-success' : 'alert-danger'} test-result`}>
      <p className="alert-title">
        {result.delivered
          ? `Test ping delivered to “${name}”: the receiver answered ${status ?? 'and accepted it'} in ${formatMs(result.duration_ms)}.`
          : `Test ping to “${name}” not delivered${status ? `: the receiver answered ${status}` : ''} after ${formatMs(result.duration_ms)}.`}
      </p>
      {result.error ? <p>What went wrong: {result.error}</p> : null}
      {result.response_body ? (
        <>
          <p>The receiver’s answer:</p>
          <pre className="response-body">{result.response_body}</pre>
        </>
      ) : (
        <p className="small">The receiver’s answer had no body.</p>
      )}
    </div>
  );
}
