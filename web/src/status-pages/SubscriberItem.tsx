import { Badge } from '../components/Badge';
import { formatDateTime } from '../format';
import type { StatusPageComponent, StatusPageSubscriber } from '../types';

/** Where the subscriber is told: its e-mail address or its webhook URL. */
export const subscriberAddress = (subscriber: StatusPageSubscriber) =>
  (subscriber.kind === 'email' ? subscriber.email : subscriber.webhook_url) ?? '';

/** The components it follows, by name; "Whole page" when it chose none. */
function followsText(subscriber: StatusPageSubscriber, components: readonly StatusPageComponent[]): string {
  if (subscriber.component_ids.length === 0) return 'Whole page';
  const named = new Map(components.map((component) => [component.id, component.name]));
  // A component removed from the page since keeps its id in the subscription, with no name left to show.
  return subscriber.component_ids.map((id) => named.get(id) ?? 'a removed component').join(', ');
}

/** One subscriber of the list: address, kind, whether it is confirmed, what it follows and since when; "Remove". */
export function SubscriberItem({
  subscriber,
  components,
  mayWrite,
  onRemove,
}: {
  subscriber: StatusPageSubscriber;
  components: readonly StatusPageComponent[];
  mayWrite: boolean;
  onRemove: () => void;
}) {
  const address = subscriberAddress(subscriber);
  return (
    <li className="subscriber" data-subscriber-id={subscriber.id}>
      <p className="check-badges">
        <strong className="url">{address}</strong>{' '}
        <Badge tone="neutral">{subscriber.kind === 'email' ? 'E-mail' : 'Webhook'}</Badge>{' '}
        {subscriber.confirmed ? null : <Badge tone="warning">Waiting for confirmation</Badge>}
      </p>
      <dl className="inline-facts">
        <div>
          <dt>Follows</dt>
          <dd>{followsText(subscriber, components)}</dd>
        </div>
        <div>
          <dt>Subscribed</dt>
          <dd>
            <time dateTime={subscriber.created_at}>{formatDateTime(subscriber.created_at)}</time>
          </dd>
        </div>
      </dl>
      {mayWrite ? (
        <button type="button" className="button button-small button-danger-outline" onClick={onRemove}>
          Remove<span className="visually-hidden"> {address}</span>
        </button>
      ) : null}
    </li>
  );
}
