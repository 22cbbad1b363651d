import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import {
  DeliveryStatusBadge,
  deliveryInProgress,
  DESTINATION_TYPE_LABEL,
  EVENT_LABEL,
  DELIVERY_POLL_MS,
} from '../components/AlertBits';
import { Badge } from '../components/Badge';
import { ProblemAlert } from '../components/ProblemAlert';
import { ResourceView } from '../components/ResourceView';
import { usePageTitle } from '../components/usePageTitle';
import { formatDateTime, plural } from '../format';
import { useApi } from '../hooks/useApi';
import { usePolling } from '../hooks/useResource';
import { canWrite } from '../permissions';
import { Link } from '../router';
import type { CurrentUser, WebhookDelivery } from '../types';
import { Attempts, RequestSent } from './DeliveryAttempts';
import { Breadcrumb } from '../components/Breadcrumb';

/** `/alerts/deliveries/:id`: one delivery with every attempt, what was sent, and a way to send it again. */
export function DeliveryPage({ id, me }: { id: string; me: CurrentUser }) {
  const delivery = useApi('/webhook-deliveries/{id}', { params: { path: { id } } });
  const loaded = delivery.data;
  const destinationId = loaded?.destination_id ?? null;
  const destination = useApi(
    '/alert-destinations/{id}',
    destinationId ? { params: { path: { id: destinationId } } } : null,
  );
  const destinationName = destination.data?.name ?? null;
  const title = loaded ? `${EVENT_LABEL[loaded.event_type]} to ${destinationName ?? 'a destination'}` : 'Delivery';
  usePageTitle(title);
  usePolling(loaded !== null && deliveryInProgress(loaded), DELIVERY_POLL_MS, delivery.reload);

  return (
    <>
      <Breadcrumb
        trail={[
          { to: '/alerts', label: 'Alerts' },
          { to: '/alerts/deliveries', label: 'Delivery log' },
        ]}
        current={loaded ? title : null}
      />
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
              {canWrite(me) ? <Redeliver delivery={current} /> : null}
            </div>
            {canWrite(me) ? null : (
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
                ? `Not delivered yet: ${current.status === 'retrying' ? 'retrying' : 'waiting for its first attempt'}. This page updates every ${DELIVERY_POLL_MS / 1000} seconds.`
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
