import { useEffect, useRef, useState } from 'react';
import { api, ok } from '../api';
import { AlertsTabs, destinationTarget } from '../components/AlertBits';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DriftWarning } from '../components/DriftWarning';
import { OneTimeSecret } from '../components/OneTimeSecret';
import { PagedList } from '../components/ResourceView';
import { useApi } from '../hooks/useApi';
import { canWrite } from '../permissions';
import { navigate, pageParam, useLocation, withQuery } from '../router';
import type { AlertDestination, AlertDestinationWithSecret, CurrentUser } from '../types';
import { CreateDestinationForm } from './CreateDestinationForm';
import { DestinationItem } from './DestinationItem';

const PER_PAGE = 20;

/** A secret the API answered once: a new webhook's, or a rotated one. */
interface ShownSecret {
  destination: AlertDestinationWithSecret & { secret: string };
  rotated: boolean;
}

/** `/alerts`: the workspace's alert destinations: add, test, enable or disable, rotate a secret, delete. */
export function AlertsPage({ me }: { me: CurrentUser }) {
  const mayWrite = canWrite(me);
  const { search } = useLocation();
  const page = pageParam(search);
  const destinations = useApi('/alert-destinations', { params: { query: { page, per_page: PER_PAGE } } });
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AlertDestination | null>(null);
  const [rotating, setRotating] = useState<AlertDestination | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  // The deleted destination's button had the focus: once the dialog has closed, carry on from the list's heading.
  const [deletions, setDeletions] = useState(0);
  useEffect(() => {
    if (deletions) listHeading.current?.focus();
  }, [deletions]);

  const replace = (updated: AlertDestination) =>
    destinations.mutate((list) => ({
      ...list,
      data: list.data.map((item) => (item.id === updated.id ? updated : item)),
    }));

  const showSecret = (destination: AlertDestinationWithSecret, rotated: boolean) => {
    const { secret: value } = destination;
    if (value) setSecret({ destination: { ...destination, secret: value }, rotated });
  };

  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">Alerts</p>
          <h1>Destinations</h1>
          <p className="lead">
            Where Vigil sends alerts: a webhook, a Slack channel or e-mail. A monitor’s alert rules (on its page) choose
            destinations; a destination can also take workspace-wide events.
          </p>
        </div>
      </div>
      <AlertsTabs current="destinations" />

      {secret ? (
        <OneTimeSecret
          heading={
            secret.rotated
              ? `New signing secret for “${secret.destination.name}”`
              : `Webhook “${secret.destination.name}” added`
          }
          warning={
            <>
              <strong>Copy this signing secret now.</strong> It is shown only this once and cannot be read again. Your
              receiver checks the <code>webhook-signature</code> header of each delivery with it.
              {secret.rotated
                ? ' The previous secret keeps signing for 24 hours too, so the receiver can switch without missing a delivery.'
                : ' If it is lost, rotate the secret to get a new one.'}
            </>
          }
          label="Signing secret"
          noun="signing secret"
          secret={secret.destination.secret}
          doneLabel="I have stored the secret"
          onDone={() => setSecret(null)}
        >
          <p className="small muted url">Signs deliveries to {destinationTarget(secret.destination)}</p>
        </OneTimeSecret>
      ) : null}

      <div className="settings-layout">
        {mayWrite ? (
          <CreateDestinationForm
            onCreated={(created) => {
              setMessage(
                created.secret ? null : `Added “${created.name}”. Send it a test to see that it receives alerts.`,
              );
              showSecret(created, false);
              destinations.reload();
            }}
          />
        ) : (
          <section aria-labelledby="add-destination-heading" className="card">
            <h2 id="add-destination-heading">Add a destination</h2>
            <p className="alert alert-info">
              You are a viewer of {me.workspace.name}: you can read the destinations and the delivery log, but only a
              member or admin can add, test, change or delete a destination, or redeliver an alert.
            </p>
          </section>
        )}

        <section aria-labelledby="destinations-heading" className="card">
          <h2 id="destinations-heading" ref={listHeading} tabIndex={-1}>
            Destinations of {me.workspace.name}
          </h2>
          <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
          <PagedList
            resource={destinations}
            loadingText="Loading destinations…"
            pagesLabel="Destination pages"
            onPage={(next) => navigate(withQuery('/alerts', { page: next }))}
            empty={<p className="muted">No destinations yet: alerts have nowhere to go.</p>}
          >
            {(rows) => (
              <ul className="destination-list">
                {rows.map((destination) => (
                  <DestinationItem
                    key={destination.id}
                    destination={destination}
                    mayWrite={mayWrite}
                    onChanged={(updated, note) => {
                      replace(updated);
                      setMessage(note);
                    }}
                    onRotate={() => setRotating(destination)}
                    onDelete={() => setDeleting(destination)}
                  />
                ))}
              </ul>
            )}
          </PagedList>
        </section>
      </div>

      {rotating ? (
        <ConfirmDialog
          title={`Give “${rotating.name}” a new signing secret?`}
          confirmLabel="Rotate secret"
          busyLabel="Rotating…"
          onConfirm={async () => {
            const rotated = await ok(
              api.POST('/alert-destinations/{id}/rotate-secret', { params: { path: { id: rotating.id } } }),
            );
            setRotating(null);
            setMessage(null);
            showSecret(rotated, true);
          }}
          onClose={() => setRotating(null)}
        >
          <p>
            The new secret is shown once. For 24 hours deliveries carry two signatures, one with each secret; after
            that, only the new one signs.
          </p>
        </ConfirmDialog>
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete destination"
          busyLabel="Deleting…"
          onConfirm={async () => {
            await ok(api.DELETE('/alert-destinations/{id}', { params: { path: { id: deleting.id } } }));
            setDeleting(null);
            setMessage(`Deleted “${deleting.name}”. Rules no longer send to it.`);
            destinations.mutate((list) => ({ ...list, data: list.data.filter((item) => item.id !== deleting.id) }));
            destinations.reload();
            setDeletions((count) => count + 1);
          }}
          onClose={() => setDeleting(null)}
        >
          <DriftWarning resource={{ noun: 'alert destination', declarationKey: deleting.declaration_key }} deleting />
          <p>Rules stop sending to it, and its delivery log is deleted with it. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
