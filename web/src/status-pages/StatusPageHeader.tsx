import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyField } from '../components/CopyField';
import { DriftWarning, type ManagedResource, useDriftConfirm } from '../components/DriftWarning';
import { ManagedBadge } from '../components/ManagedBadge';
import { ProblemAlert } from '../components/ProblemAlert';
import { formatDateTime, plural } from '../format';
import { canWrite } from '../permissions';
import { navigate } from '../router';
import type { CurrentUser, StatusPage } from '../types';
import { absoluteUrl, PublishedBadge } from './StatusPageBits';

export function StatusPageHeader({
  page,
  me,
  onChanged,
}: {
  page: StatusPage;
  me: CurrentUser;
  onChanged: (page: StatusPage) => void;
}) {
  const mayWrite = canWrite(me);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<{ title: string; error: unknown } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const address = absoluteUrl(page.public_url);
  const drift = useDriftConfirm();
  const managed: ManagedResource = { noun: 'status page', declarationKey: page.declaration_key };

  function togglePublished() {
    const verb = page.published ? 'Unpublish' : 'Publish';
    drift.confirm(
      managed,
      { title: `${verb} “${page.title}” by hand?`, confirmLabel: `${verb} anyway` },
      () => void setPublished(),
    );
  }

  async function setPublished() {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const updated = await ok(
        api.PATCH('/status-pages/{id}', { params: { path: { id: page.id } }, body: { published: !page.published } }),
      );
      onChanged(updated);
      setMessage(
        updated.published
          ? `Published: anyone with the address can now read “${updated.title}”.`
          : `Unpublished: “${updated.title}” is private again, and its address answers “not found”.`,
      );
    } catch (caught) {
      setError({ title: `“${page.title}” was not ${page.published ? 'unpublished' : 'published'}`, error: caught });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className="page-header">
        <div className="status-page-title">
          <p className="eyebrow">Status page</p>
          <h1>{page.title}</h1>
          <p className="check-badges">
            <PublishedBadge published={page.published} />
            <ManagedBadge declarationKey={page.declaration_key} />
            <span className="muted">
              {plural(page.components.length, 'component')} · changed {formatDateTime(page.updated_at)}
            </span>
          </p>
        </div>
        {mayWrite ? (
          <div className="button-row">
            <button
              type="button"
              className={`button ${page.published ? 'button-secondary' : 'button-primary'}`}
              disabled={busy}
              onClick={togglePublished}
            >
              {busy ? 'Saving…' : page.published ? 'Unpublish' : 'Publish'}
            </button>
            <button type="button" className="button button-danger-outline" onClick={() => setDeleting(true)}>
              Delete<span className="visually-hidden"> {page.title}</span>
            </button>
          </div>
        ) : null}
      </div>
      <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
      {error ? <ProblemAlert error={error.error} title={error.title} /> : null}
      {!mayWrite ? (
        <p className="alert alert-info">
          You are a viewer of {me.workspace.name}: you can read this status page and its incidents, but only a member or
          admin can change, publish or delete it, or post an incident.
        </p>
      ) : null}

      <section aria-labelledby="public-heading" className="card public-address">
        <h2 id="public-heading">Public page</h2>
        {page.published ? (
          <>
            <p>
              <a href={address} className="url">
                Open the public page<span className="visually-hidden"> of {page.title}</span>
              </a>{' '}
              <span className="small muted">
                (or its incidents as an <a href={`${address}/feed.atom`}>Atom feed</a>)
              </span>
            </p>
            <CopyField id="public-url" label="Public address" value={address} noun="address" />
          </>
        ) : (
          <p className="muted">
            Not published: <span className="url">{address}</span> answers “not found” until you publish the page.
          </p>
        )}
      </section>

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${page.title}”?`}
          confirmLabel="Delete status page"
          busyLabel="Deleting…"
          onConfirm={async () => {
            await ok(api.DELETE('/status-pages/{id}', { params: { path: { id: page.id } } }));
            navigate('/status-pages');
          }}
          onClose={() => setDeleting(false)}
        >
          <DriftWarning resource={managed} deleting />
          <p>
            Its public address answers “not found” from then on, its incidents are deleted with it, and its slug is free
            again. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {drift.dialog}
    </>
  );
}
