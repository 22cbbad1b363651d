import {
  AlertsTabs,
  DELIVERY_STATUSES,
  DeliveryStatusBadge,
  deliveryInProgress,
  deliveryStatusLabel,
  EVENT_LABEL,
  EVENT_TYPES,
  DELIVERY_POLL_MS,
} from '../components/AlertBits';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList } from '../components/ResourceView';
import { formatDateTime, plural } from '../format';
import { useAllDestinations } from '../hooks/useAllDestinations';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { canWrite } from '../permissions';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { AlertDestination, CurrentUser, WebhookDelivery } from '../types';

const PER_PAGE = 20;

/** The last attempt, in a few words. */
function lastAttempt(delivery: WebhookDelivery): string {
  const last = delivery.attempts[delivery.attempts.length - 1];
  if (!last) return 'none yet';
  if (last.response_status !== null) return `HTTP ${last.response_status}`;
  return last.error ?? 'no answer';
}

/** `/alerts/deliveries`: every delivery of an event to a destination, newest first, filtered. */
export function DeliveriesPage({ me }: { me: CurrentUser }) {
  const { search } = useLocation();
  const page = pageParam(search);
  const status = DELIVERY_STATUSES.find((item) => item === search.get('status'));
  const event = EVENT_TYPES.find((item) => item === search.get('event'));
  const destinationId = search.get('destination') ?? undefined;
  const deliveries = useApi('/webhook-deliveries', {
    params: { query: { page, per_page: PER_PAGE, status, event_type: event, destination_id: destinationId } },
  });
  const destinations = useAllDestinations();
  const named = new Map((destinations.data ?? []).map((destination) => [destination.id, destination]));
  usePolling(deliveries.data?.data.some(deliveryInProgress) ?? false, DELIVERY_POLL_MS, deliveries.reload);

  const filters = { status, event, destination: destinationId };
  const go = (next: Partial<typeof filters> & { page?: number }) =>
    navigate(withQuery('/alerts/deliveries', { ...filters, ...next, page: next.page }));
  const total = deliveries.data?.pagination.total;

  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">Alerts</p>
          <h1>Delivery log</h1>
          <p className="lead">
            Every event sent to a destination, newest first, with each attempt. A failed attempt is retried (after about
            5 s, 1 min, 10 min, 1 h and 6 h) with the same <code>webhook-id</code>.
          </p>
        </div>
      </div>
      <AlertsTabs current="deliveries" />
      {canWrite(me) ? null : (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: you can read the delivery log and each attempt, but only a member or
          admin can redeliver an alert.
        </p>
      )}

      <div className="toolbar">
        <div className="toolbar-filters">
          <SelectField
            id="delivery-status-filter"
            label="Status"
            className="field-inline"
            value={status ?? ''}
            onChange={(value) => go({ status: DELIVERY_STATUSES.find((item) => item === value) })}
            options={[
              { value: '', label: 'All statuses' },
              ...DELIVERY_STATUSES.map((item) => ({ value: item, label: deliveryStatusLabel(item) })),
            ]}
          />
          <SelectField
            id="delivery-event-filter"
            label="Event"
            className="field-inline"
            value={event ?? ''}
            onChange={(value) => go({ event: EVENT_TYPES.find((item) => item === value) })}
            options={[
              { value: '', label: 'All events' },
              ...EVENT_TYPES.filter((item) => item !== 'ping').map((item) => ({
                value: item,
                label: EVENT_LABEL[item],
              })),
            ]}
          />
          <SelectField
            id="delivery-destination-filter"
            label="Destination"
            className="field-inline"
            value={destinationId ?? ''}
            onChange={(value) => go({ destination: value || undefined })}
            options={[
              { value: '', label: 'All destinations' },
              ...(destinations.data ?? []).map((destination) => ({ value: destination.id, label: destination.name })),
              // A destination named in the address but not listed (a code host, from the Workspace page) stays selectable.
              ...(destinationId && !named.has(destinationId)
                ? [{ value: destinationId, label: destinations.data ? 'The chosen code host' : 'Loading…' }]
                : []),
            ]}
          />
        </div>
        <p className="muted toolbar-count" aria-live="polite">
          {total !== undefined ? plural(total, 'delivery', 'deliveries') : ''}
        </p>
      </div>
      <ProblemAlert error={destinations.error} title="The destinations could not be loaded" />

      <PagedList
        resource={deliveries}
        loadingText="Loading deliveries…"
        pagesLabel="Delivery log pages"
        onPage={(next) => go({ page: next })}
        empty={
          <div className="empty-state card">
            <h2>No deliveries{status || event || destinationId ? ' match these filters' : ' yet'}</h2>
            <p>
              Deliveries appear when a monitor’s alert rule fires or a destination’s workspace events happen. A test
              ping is not logged: its answer is shown where it was sent.
            </p>
          </div>
        }
      >
        {(rows) => (
          <DataTable
            label="Deliveries"
            caption="Deliveries, newest first, with event, destination, status, attempts and time"
            className="deliveries-table"
            rows={rows}
            rowKey={(delivery) => delivery.id}
            rowProps={(delivery) => ({ 'data-delivery-id': delivery.id })}
            columns={[
              {
                header: 'Event',
                rowHeader: true,
                cell: (delivery) => (
                  <>
                    <Link to={`/alerts/deliveries/${delivery.id}`}>{EVENT_LABEL[delivery.event_type]}</Link>
                    <span className="block small muted">
                      <code>{delivery.event_type}</code>
                    </span>
                  </>
                ),
              },
              {
                header: 'Destination',
                cell: (delivery) => <DestinationName delivery={delivery} named={named} />,
              },
              {
                header: 'Status',
                cell: (delivery) => (
                  <>
                    <DeliveryStatusBadge status={delivery.status} />
                    {delivery.next_attempt_at && deliveryInProgress(delivery) ? (
                      <span className="block small muted">next try {formatDateTime(delivery.next_attempt_at)}</span>
                    ) : null}
                  </>
                ),
              },
              {
                header: 'Attempts',
                cell: (delivery) => (
                  <>
                    {delivery.attempts.length}
                    <span className="block small muted">last: {lastAttempt(delivery)}</span>
                  </>
                ),
              },
              { header: 'Created', cell: (delivery) => formatDateTime(delivery.created_at) },
            ]}
          />
        )}
      </PagedList>
    </>
  );
}

function DestinationName({ delivery, named }: { delivery: WebhookDelivery; named: Map<string, AlertDestination> }) {
  const destination = named.get(delivery.destination_id);
  return (
    <>
      {/* Code-host connections are not alert destinations: their API address below says where it went. */}
      {destination ? destination.name : <span className="muted">Not an alert destination (a code host)</span>}
      <span className="block small muted url">{delivery.url}</span>
    </>
  );
}
