import { useEffect, useRef, useState } from 'react';
import { api, ok } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { PagedList } from '../components/ResourceView';
import { plural } from '../format';
import { useApi } from '../hooks/useApi';
import type { StatusPage, StatusPageSubscriber } from '../types';
import { absoluteUrl } from './StatusPageBits';
import { subscriberAddress, SubscriberItem } from './SubscriberItem';

const SUBSCRIBERS_PER_PAGE = 20;

/** Who is told of the page's incidents and maintenance, oldest first: what each follows, whether it confirmed. */
export function Subscribers({ page, mayWrite }: { page: StatusPage; mayWrite: boolean }) {
  const [listPage, setListPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const [removing, setRemoving] = useState<StatusPageSubscriber | null>(null);
  const subscribers = useApi('/status-pages/{id}/subscribers', {
    params: { path: { id: page.id }, query: { page: listPage, per_page: SUBSCRIBERS_PER_PAGE } },
  });
  const heading = useRef<HTMLHeadingElement>(null);
  // The removed subscriber's button had the focus: once the dialog has closed, carry on from the section's heading.
  const [removals, setRemovals] = useState(0);
  useEffect(() => {
    if (removals) heading.current?.focus();
  }, [removals]);
  const total = subscribers.data?.pagination.total ?? 0;
  const publicAddress = absoluteUrl(page.public_url);

  async function remove(subscriber: StatusPageSubscriber) {
    await ok(
      api.DELETE('/status-pages/{id}/subscribers/{subscriber_id}', {
        params: { path: { id: page.id, subscriber_id: subscriber.id } },
      }),
    );
    const lastOnItsPage = subscribers.data?.data.length === 1;
    setRemoving(null);
    setMessage(`Removed ${subscriberAddress(subscriber)}: it is told nothing more.`);
    subscribers.mutate((list) => ({
      ...list,
      data: list.data.filter((item) => item.id !== subscriber.id),
      pagination: { ...list.pagination, total: list.pagination.total - 1 },
    }));
    // The last one of a later page leaves it empty: show the page before. Otherwise the next page's first moves up.
    if (lastOnItsPage && listPage > 1) setListPage(listPage - 1);
    else subscribers.reload();
    setRemovals((count) => count + 1);
  }

  return (
    <section aria-labelledby="subscribers-heading" className="card subscribers">
      <h2 id="subscribers-heading" ref={heading} tabIndex={-1}>
        Subscribers
      </h2>
      <p className="small muted">
        {page.published ? (
          <>
            People subscribe on <a href={publicAddress}>its public page</a>
          </>
        ) : (
          <>
            Once the page is published, people subscribe on its public page,{' '}
            <span className="url">{publicAddress}</span>
          </>
        )}
        , by e-mail with its form or with a webhook through the API; an e-mail address is told nothing until its owner
        follows the confirmation link sent to it.
      </p>
      {total > 0 ? (
        <p>
          <strong>{plural(total, 'subscriber')}</strong>
        </p>
      ) : null}
      <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
      <PagedList
        resource={subscribers}
        loadingText="Loading subscribers…"
        pagesLabel="Subscriber pages"
        onPage={setListPage}
        empty={<p className="muted">Nobody has subscribed yet.</p>}
      >
        {(list) => (
          // The status pages' list style: one bordered row each.
          <ul className="component-list subscriber-list" aria-labelledby="subscribers-heading">
            {list.map((subscriber) => (
              <SubscriberItem
                key={subscriber.id}
                subscriber={subscriber}
                components={page.components}
                mayWrite={mayWrite}
                onRemove={() => setRemoving(subscriber)}
              />
            ))}
          </ul>
        )}
      </PagedList>

      {removing ? (
        <ConfirmDialog
          title={`Remove ${subscriberAddress(removing)}?`}
          confirmLabel="Remove subscriber"
          busyLabel="Removing…"
          onConfirm={() => remove(removing)}
          onClose={() => setRemoving(null)}
        >
          <p>
            {removing.kind === 'email'
              ? `The address gets no more e-mail about “${page.title}”, and is not told it was removed.`
              : `The URL is sent no more notifications about “${page.title}”, and is not told it was removed.`}{' '}
            It may subscribe again later.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
