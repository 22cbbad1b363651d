import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import {
  AlertsTabs,
  allDestinations,
  canWriteIn,
  DELIVERY_STATUSES,
  DeliveryStatusBadge,
  deliveryInProgress,
  deliveryStatusLabel,
  DESTINATION_TYPE_LABEL,
  EVENT_LABEL,
  EVENT_TYPES,
} from '../components/AlertBits';
import { Badge } from '../components/Badge';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { ProblemAlert } from '../components/ProblemAlert';
import { PagedList, ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime, formatMs, plural } from '../format';
import { usePolling, useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { AlertDestination, CurrentUser, DeliveryAttempt, WebhookDelivery } from '../types';

/** Deliveries with attempts still to make are read again this often. */
const POLL_MS = 2_000;
const PER_PAGE = 20;

const answered = (attempt: DeliveryAttempt) =>
  attempt.response_status !== null && attempt.response_status >= 200 && attempt.response_status < 300;

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
  const deliveries = useResource(
    withQuery('/webhook-deliveries', { page, status, event, destination: destinationId }),
    (signal) =>
      ok(
        api.GET('/webhook-deliveries', {
          params: {
            query: { page, per_page: PER_PAGE, status, event_type: event, destination_id: destinationId },
          },
          signal,
        }),
      ),
  );
  const destinations = useResource('/alert-destinations?all', allDestinations);
  const named = new Map((destinations.data ?? []).map((destination) => [destination.id, destination]));
  usePolling(deliveries.data?.data.some(deliveryInProgress) ?? false, POLL_MS, deliveries.reload);

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
      {canWriteIn(me) ? null : (
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
              // A destination named in the address but not (or not yet) listed stays selectable.
              ...(destinationId && !named.has(destinationId)
                ? [{ value: destinationId, label: destinations.data ? 'A destination no longer listed' : 'Loading…' }]
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
      {destination ? destination.name : <span className="muted">A destination no longer listed</span>}
      <span className="block small muted url">{delivery.url}</span>
    </>
  );
}

/** `/alerts/deliveries/:id`: one delivery with every attempt, what was sent, and a way to send it again. */
export function DeliveryPage({ id, me }: { id: string; me: CurrentUser }) {
  const delivery = useResource(`/webhook-deliveries/${id}`, (signal) =>
    ok(api.GET('/webhook-deliveries/{id}', { params: { path: { id } }, signal })),
  );
  const loaded = delivery.data;
  const destinationId = loaded?.destination_id ?? null;
  const destination = useResource(destinationId ? `/alert-destinations/${destinationId}` : null, (signal) =>
    ok(api.GET('/alert-destinations/{id}', { params: { path: { id: destinationId ?? '' } }, signal })),
  );
  const destinationName = destination.data?.name ?? null;
  const title = loaded ? `${EVENT_LABEL[loaded.event_type]} to ${destinationName ?? 'a destination'}` : 'Delivery';
  usePageTitle(title);
  usePolling(loaded !== null && deliveryInProgress(loaded), POLL_MS, delivery.reload);

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/alerts">Alerts</Link>
          </li>
          <li>
            <Link to="/alerts/deliveries">Delivery log</Link>
          </li>
          {loaded ? (
            <li>
              <span aria-current="page">{title}</span>
            </li>
          ) : null}
        </ol>
      </nav>
      {!loaded && delivery.error ? <h1>Delivery</h1> : null}
      <ResourceView
        resource={delivery}
        loadingText="Loading the delivery…"
        errorTitle={
          delivery.error instanceof ProblemError && delivery.error.status === 404 ? 'Delivery not found' : undefined
        }
      >
        {(current) => (
          <>
            <div className="page-header">
              <div className="crawl-title">
                <p className="eyebrow">Delivery</p>
                <h1>{title}</h1>
                <p className="check-badges">
                  <DeliveryStatusBadge status={current.status} />
                  <Badge tone="neutral">{plural(current.attempts.length, 'attempt')}</Badge>
                </p>
              </div>
              {canWriteIn(me) ? <Redeliver delivery={current} /> : null}
            </div>
            {canWriteIn(me) ? null : (
              <p className="alert alert-info">
                You are a viewer of {me.workspace.name}: you can read this delivery and its attempts, but only a member
                or admin can redeliver it.
              </p>
            )}
            <dl className="meta-grid delivery-facts">
              <div>
                <dt>Destination</dt>
                <dd>
                  {destination.data
                    ? `${destination.data.name} (${DESTINATION_TYPE_LABEL[destination.data.type]})`
                    : destination.error
                      ? 'No longer listed'
                      : '…'}
                </dd>
              </div>
              <div>
                <dt>Sent to</dt>
                <dd className="url">{current.url}</dd>
              </div>
              <div>
                <dt>Event</dt>
                <dd>
                  <code>{current.event_type}</code>
                </dd>
              </div>
              <div>
                <dt>Event id (webhook-id)</dt>
                <dd>
                  <code>{current.event_id}</code>
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{formatDateTime(current.created_at)}</dd>
              </div>
              <div>
                <dt>Next attempt</dt>
                <dd>
                  {current.next_attempt_at && deliveryInProgress(current)
                    ? formatDateTime(current.next_attempt_at)
                    : current.status === 'succeeded'
                      ? 'None: delivered'
                      : current.status === 'failed'
                        ? 'None: every retry failed'
                        : 'Soon'}
                </dd>
              </div>
            </dl>
            <p className="progress" role="status">
              {deliveryInProgress(current)
                ? `Not delivered yet: ${current.status === 'retrying' ? 'retrying' : 'waiting for its first attempt'}. This page updates every ${POLL_MS / 1000} seconds.`
                : ''}
            </p>
            <Attempts delivery={current} />
            <RequestSent delivery={current} />
          </>
        )}
      </ResourceView>
    </>
  );
}

function Redeliver({ delivery }: { delivery: WebhookDelivery }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [queued, setQueued] = useState<WebhookDelivery | null>(null);

  async function redeliver() {
    setBusy(true);
    setError(null);
    setQueued(null);
    try {
      setQueued(await ok(api.POST('/webhook-deliveries/{id}/redeliver', { params: { path: { id: delivery.id } } })));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="redeliver">
      <button type="button" className="button button-primary" disabled={busy} onClick={() => void redeliver()}>
        {busy ? 'Redelivering…' : 'Redeliver'}
      </button>
      <div role="status">
        {queued ? (
          <p className="alert alert-success">
            Redelivery queued: a new delivery of the same event, with the same <code>webhook-id</code>.{' '}
            <Link to={`/alerts/deliveries/${queued.id}`}>See the new delivery</Link>
          </p>
        ) : null}
      </div>
      <ProblemAlert error={error} title="The delivery was not sent again" />
    </div>
  );
}

function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <section aria-labelledby="attempts-heading" className="card">
      <h2 id="attempts-heading">Attempts ({delivery.attempts.length})</h2>
      {delivery.attempts.length === 0 ? (
        <p className="muted">No attempt yet.</p>
      ) : (
        <ol className="attempt-list">
          {delivery.attempts.map((attempt, index) => (
            <li key={`${attempt.at}-${index}`} className="attempt" data-attempt={index + 1}>
              <h3 className="h-small">
                Attempt {index + 1}:{' '}
                {answered(attempt) ? (
                  <Badge tone="success">Delivered</Badge>
                ) : (
                  <Badge tone="danger">Not delivered</Badge>
                )}
              </h3>
              <dl className="meta-grid">
                <div>
                  <dt>At</dt>
                  <dd>{formatDateTime(attempt.at)}</dd>
                </div>
                <div>
                  <dt>Answer</dt>
                  <dd>{attempt.response_status !== null ? `HTTP ${attempt.response_status}` : 'None'}</dd>
                </div>
                <div>
                  <dt>Took</dt>
                  <dd>{formatMs(attempt.duration_ms)}</dd>
                </div>
              </dl>
              {attempt.error ? <p className="text-danger">What went wrong: {attempt.error}</p> : null}
              {attempt.response_body ? (
                <>
                  <p className="small">The receiver’s answer (its first 4 KiB):</p>
                  <pre className="response-body">{attempt.response_body}</pre>
                </>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function RequestSent({ delivery }: { delivery: WebhookDelivery }) {
  const headers = Object.entries(delivery.request.headers);
  return (
    <section aria-labelledby="request-heading" className="card">
      <h2 id="request-heading">What was sent</h2>
      <p className="small muted">The signature is shown; the secret never is.</p>
      <h3 className="h-small">Headers</h3>
      <dl className="header-list">
        {headers.map(([name, value]) => (
          <div key={name}>
            <dt>
              <code>{name}</code>
            </dt>
            <dd className="value">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="h-small">Body</h3>
      <pre className="response-body">{prettyJson(delivery.request.body)}</pre>
    </section>
  );
}

/** A JSON body, indented for reading; anything else as it was. */
function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
