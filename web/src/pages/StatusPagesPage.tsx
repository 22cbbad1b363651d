import { type ReactNode, useId, useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { canWriteIn } from '../components/AlertBits';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CopyField } from '../components/CopyField';
import { DataTable } from '../components/DataTable';
import { SelectField, TextAreaField, TextField } from '../components/Field';
import { allMonitors } from '../components/MonitorBits';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { PagedList, ResourceView } from '../components/ResourceView';
import {
  absoluteUrl,
  type ComponentDraft,
  componentDrafts,
  componentInputs,
  componentProblems,
  ComponentsEditor,
  emptyComponent,
  ImpactBadge,
  IMPACTS,
  INCIDENT_STATUSES,
  incidentStatusLabel,
  IncidentStatusBadge,
  nextIncidentStatus,
  PublishedBadge,
  slugFrom,
} from '../components/StatusPageBits';
import { usePageTitle } from '../components/usePageTitle';
import { useSubmit } from '../components/useSubmit';
import { formatDateTime, plural } from '../format';
import { useResource } from '../hooks/useResource';
import { Link, navigate, pageParam, useLocation, withQuery } from '../router';
import type { CurrentUser, Incident, IncidentImpact, IncidentStatus, Monitor, StatusPage } from '../types';

const PER_PAGE = 20;
const INCIDENTS_PER_PAGE = 10;
const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,58})[a-z0-9]$/;

/** `/status-pages`: the workspace's public status pages, and a form to create one. */
export function StatusPagesPage({ me }: { me: CurrentUser }) {
  const canWrite = canWriteIn(me);
  const { search } = useLocation();
  const page = pageParam(search);
  const pages = useResource(withQuery('/status-pages', { page }), (signal) =>
    ok(api.GET('/status-pages', { params: { query: { page, per_page: PER_PAGE } }, signal })),
  );
  const monitors = useResource(canWrite ? '/monitors?all' : null, allMonitors);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Status pages</h1>
          <p className="lead">
            Public pages that tell your visitors whether your services work: components built from your monitors, with
            90 days of uptime, and the incidents you post. A page stays private until you publish it.
          </p>
        </div>
      </div>
      <div className="settings-layout status-pages-layout">
        {canWrite ? (
          <section aria-labelledby="create-status-page-heading" className="card">
            <h2 id="create-status-page-heading">Create a status page</h2>
            <ResourceView
              resource={monitors}
              loadingText="Loading monitors…"
              errorTitle="The monitors could not be loaded"
            >
              {(choices) => (
                <StatusPageForm
                  page={null}
                  monitors={choices}
                  onSaved={(created) => navigate(`/status-pages/${created.id}`)}
                />
              )}
            </ResourceView>
          </section>
        ) : (
          <section aria-labelledby="create-status-page-heading" className="card">
            <h2 id="create-status-page-heading">Create a status page</h2>
            <p className="alert alert-info">
              You are a viewer of {me.workspace.name}: you can read the status pages and their incidents, but only a
              member or admin can create, change, publish or delete one, or post an incident.
            </p>
          </section>
        )}

        <section aria-labelledby="status-pages-heading" className="card">
          <h2 id="status-pages-heading">Status pages of {me.workspace.name}</h2>
          <PagedList
            resource={pages}
            loadingText="Loading status pages…"
            pagesLabel="Status page list pages"
            onPage={(next) => navigate(withQuery('/status-pages', { page: next }))}
            empty={<p className="muted">No status pages yet.</p>}
          >
            {(rows) => (
              <DataTable
                label="Status pages"
                caption="Status pages, oldest first, with whether each is published, its components and public address"
                rows={rows}
                rowKey={(row) => row.id}
                rowProps={(row) => ({ 'data-status-page-id': row.id })}
                columns={[
                  {
                    header: 'Page',
                    rowHeader: true,
                    cell: (row) => (
                      <>
                        <Link to={`/status-pages/${row.id}`}>{row.title}</Link>
                        <span className="block small muted url">{row.public_url}</span>
                      </>
                    ),
                  },
                  { header: 'Published', cell: (row) => <PublishedBadge published={row.published} /> },
                  { header: 'Components', cell: (row) => row.components.length },
                  { header: 'Changed', cell: (row) => formatDateTime(row.updated_at) },
                ]}
              />
            )}
          </PagedList>
        </section>
      </div>
    </>
  );
}

/**
 * A status page's title, slug, description and components: creates one (`page` null) or saves the changes. The slug
 * follows the title until it is edited. The API's errors show at their fields; a taken slug at the slug.
 */
function StatusPageForm({
  page,
  monitors,
  onSaved,
}: {
  page: StatusPage | null;
  monitors: readonly Monitor[];
  onSaved: (page: StatusPage) => void;
}) {
  const prefix = page ? 'edit' : 'new';
  const [title, setTitle] = useState(page?.title ?? '');
  const [slug, setSlug] = useState(page?.slug ?? '');
  const [slugEdited, setSlugEdited] = useState(page !== null);
  const [description, setDescription] = useState(page?.description ?? '');
  const [drafts, setDrafts] = useState<ComponentDraft[]>(() =>
    page ? componentDrafts(page.components, monitors) : [emptyComponent()],
  );
  const [local, setLocal] = useState<{ title?: string; slug?: string; components: Record<string, string> }>({
    components: {},
  });
  const [saved, setSaved] = useState<string | null>(null);
  // A component left wholly empty (no name, no monitors) is dropped rather than refused.
  const kept = drafts.filter((draft) => draft.name.trim() || draft.monitorIds.length);

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      setSaved(null);
      const problems: typeof local = { components: componentProblems(kept) };
      if (!title.trim()) problems.title = 'Give the page a title, such as your company’s or service’s name.';
      if (!SLUG_PATTERN.test(slug)) {
        problems.slug = slug
          ? 'Use 3 to 60 lower-case letters, digits and hyphens, not starting or ending with a hyphen.'
          : 'Choose the address of the page, such as “acme”.';
      }
      setLocal(problems);
      return !problems.title && !problems.slug && Object.keys(problems.components).length === 0;
    },
    send: async () => {
      // The API's errors name components by their place in the list sent: show that list.
      if (kept.length !== drafts.length) setDrafts(kept);
      const body = {
        title: title.trim(),
        slug,
        description: description.trim() || null,
        components: componentInputs(kept),
      };
      const result = page
        ? await ok(api.PATCH('/status-pages/{id}', { params: { path: { id: page.id } }, body }))
        : await ok(api.POST('/status-pages', { body: { ...body, published: false } }));
      if (page) {
        // New components now have ids: keep them, so the next save keeps the same components.
        setDrafts(componentDrafts(result.components, monitors));
        setSaved('Saved. The public page shows the change on its next read.');
      }
      onSaved(result);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const slugTaken = error instanceof ProblemError && error.code === 'slug_taken' ? error.message : undefined;
  const what = page ? 'The changes were not saved' : 'The status page was not created';

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={page ? 'Edit the status page' : undefined}>
      {invalid || slugTaken ? (
        <ProblemAlert error={error} title={`${what}: correct the fields marked below`} />
      ) : (
        <ProblemAlert error={error} title={what} />
      )}
      <TextField
        id={`${prefix}-status-title`}
        label="Title"
        required
        maxLength={120}
        placeholder="e.g. Acme status"
        value={title}
        onChange={(next) => {
          setTitle(next);
          if (!slugEdited) setSlug(slugFrom(next));
        }}
        error={local.title ?? fieldError(error, 'title')}
      />
      <TextField
        id={`${prefix}-status-slug`}
        label="Slug"
        required
        maxLength={60}
        spellCheck={false}
        autoCapitalize="none"
        placeholder="acme"
        hint={
          <>
            The page’s address: <span className="url">{absoluteUrl(`/status/${slug || '…'}`)}</span>. Lower-case
            letters, digits and hyphens, 3 to 60 characters.
          </>
        }
        value={slug}
        onChange={(next) => {
          setSlug(next);
          setSlugEdited(true);
        }}
        error={local.slug ?? slugTaken ?? fieldError(error, 'slug')}
      />
      <TextAreaField
        id={`${prefix}-status-description`}
        label="Description"
        optional
        rows={2}
        maxLength={2000}
        hint="Shown under the title on the public page."
        value={description}
        onChange={setDescription}
        error={fieldError(error, 'description')}
      />
      <ComponentsEditor
        idPrefix={prefix}
        drafts={drafts}
        onChange={setDrafts}
        monitors={monitors}
        local={local.components}
        error={error}
      />
      <div role="status">{saved ? <p className="alert alert-success">{saved}</p> : null}</div>
      <button type="submit" className="button button-primary" disabled={busy}>
        {page ? (busy ? 'Saving…' : 'Save changes') : busy ? 'Creating…' : 'Create status page'}
      </button>
    </form>
  );
}

/** `/status-pages/:id`: one status page: publish or unpublish, its address, its components and its incidents. */
export function StatusPagePage({ id, me }: { id: string; me: CurrentUser }) {
  const canWrite = canWriteIn(me);
  const resource = useResource(`/status-pages/${id}`, (signal) =>
    ok(api.GET('/status-pages/{id}', { params: { path: { id } }, signal })),
  );
  const page = resource.data;
  usePageTitle(page ? `${page.title} · Status page` : 'Status page');

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/status-pages">Status pages</Link>
          </li>
          {page ? (
            <li>
              <span aria-current="page">{page.title}</span>
            </li>
          ) : null}
        </ol>
      </nav>
      {!page && resource.error ? <h1>Status page</h1> : null}
      <ResourceView
        resource={resource}
        loadingText="Loading the status page…"
        errorTitle={
          resource.error instanceof ProblemError && resource.error.status === 404 ? 'Status page not found' : undefined
        }
      >
        {(loaded) => (
          <>
            <StatusPageHeader page={loaded} me={me} onChanged={(next) => resource.mutate(() => next)} />
            <div className="settings-layout status-page-layout">
              {canWrite ? (
                <section aria-labelledby="edit-heading" className="card">
                  <h2 id="edit-heading">Page and components</h2>
                  <WithMonitors>
                    {(monitors) => (
                      <StatusPageForm
                        page={loaded}
                        monitors={monitors}
                        onSaved={(next) => resource.mutate(() => next)}
                      />
                    )}
                  </WithMonitors>
                </section>
              ) : (
                <ComponentsView page={loaded} me={me} />
              )}
              <Incidents page={loaded} canWrite={canWrite} />
            </div>
          </>
        )}
      </ResourceView>
    </>
  );
}

/** Loads every monitor of the workspace, then shows what needs them. */
function WithMonitors({ children }: { children: (monitors: Monitor[]) => ReactNode }) {
  const monitors = useResource('/monitors?all', allMonitors);
  return (
    <ResourceView resource={monitors} loadingText="Loading monitors…" errorTitle="The monitors could not be loaded">
      {children}
    </ResourceView>
  );
}

function StatusPageHeader({
  page,
  me,
  onChanged,
}: {
  page: StatusPage;
  me: CurrentUser;
  onChanged: (page: StatusPage) => void;
}) {
  const canWrite = canWriteIn(me);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<{ title: string; error: unknown } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const address = absoluteUrl(page.public_url);

  async function togglePublished() {
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
            <span className="muted">
              {plural(page.components.length, 'component')} · changed {formatDateTime(page.updated_at)}
            </span>
          </p>
        </div>
        {canWrite ? (
          <div className="button-row">
            <button
              type="button"
              className={`button ${page.published ? 'button-secondary' : 'button-primary'}`}
              disabled={busy}
              onClick={() => void togglePublished()}
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
      {!canWrite ? (
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
          <p>
            Its public address answers “not found” from then on, its incidents are deleted with it, and its slug is free
            again. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** The components as a viewer reads them: names, and the monitors behind each. */
function ComponentsView({ page, me }: { page: StatusPage; me: CurrentUser }) {
  const monitors = useResource('/monitors?all', allMonitors);
  const named = new Map((monitors.data ?? []).map((monitor) => [monitor.id, monitor.name]));
  return (
    <section aria-labelledby="components-heading" className="card">
      <h2 id="components-heading">Components</h2>
      {page.description ? <p>{page.description}</p> : null}
      <ProblemAlert error={monitors.error} title="The monitors could not be loaded" />
      {page.components.length === 0 ? (
        <p className="muted">No components: the page shows only incidents.</p>
      ) : (
        <ul className="component-list">
          {page.components.map((component) => (
            <li key={component.id}>
              <strong>{component.name}</strong>
              <span className="block small muted">
                {component.monitor_ids.length === 0
                  ? 'No monitors'
                  : `From ${component.monitor_ids.map((monitorId) => named.get(monitorId) ?? 'a monitor').join(', ')}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="small muted">Monitors of {me.workspace.name} are never named on the public page.</p>
    </section>
  );
}

/** A page's incidents, newest first, each with its updates in order; a form to open one. */
function Incidents({ page, canWrite }: { page: StatusPage; canWrite: boolean }) {
  const [listPage, setListPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const incidents = useResource(`/status-pages/${page.id}/incidents?page=${listPage}`, (signal) =>
    ok(
      api.GET('/status-pages/{id}/incidents', {
        params: { path: { id: page.id }, query: { page: listPage, per_page: INCIDENTS_PER_PAGE } },
        signal,
      }),
    ),
  );

  return (
    <section aria-labelledby="incidents-heading" className="card incidents">
      <h2 id="incidents-heading">Incidents</h2>
      <p className="small muted">
        {page.published
          ? 'Open incidents, and those of the last 90 days, show on the public page, newest first.'
          : 'Once the page is published, open incidents and those of the last 90 days show on it.'}
      </p>
      {canWrite ? (
        <OpenIncidentForm
          page={page}
          onOpened={(incident) => {
            setMessage(
              `Opened “${incident.title}”${page.published ? ': it shows on the public page now.' : '. It shows once the page is published.'}`,
            );
            setListPage(1);
            incidents.reload();
          }}
        />
      ) : null}
      <div role="status">{message ? <p className="alert alert-success">{message}</p> : null}</div>
      <PagedList
        resource={incidents}
        loadingText="Loading incidents…"
        pagesLabel="Incident pages"
        onPage={setListPage}
        empty={<p className="muted">No incidents posted.</p>}
      >
        {(list) => (
          <ul className="incident-list">
            {list.map((incident) => (
              <IncidentItem
                key={incident.id}
                pageId={page.id}
                incident={incident}
                canWrite={canWrite}
                onUpdated={(updated) =>
                  incidents.mutate((current) => ({
                    ...current,
                    data: current.data.map((item) => (item.id === updated.id ? updated : item)),
                  }))
                }
              />
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}

function OpenIncidentForm({ page, onOpened }: { page: StatusPage; onOpened: (incident: Incident) => void }) {
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<IncidentImpact>('minor');
  const [status, setStatus] = useState<IncidentStatus>('investigating');
  const [message, setMessage] = useState('');
  const [local, setLocal] = useState<{ title?: string; message?: string }>({});
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (!title.trim()) problems.title = 'Say what is wrong, in a few words the public understands.';
      if (!message.trim()) problems.message = 'Tell the public what you know so far.';
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const incident = await ok(
        api.POST('/status-pages/{id}/incidents', {
          params: { path: { id: page.id } },
          body: { title: title.trim(), impact, status, message: message.trim() },
        }),
      );
      setTitle('');
      setMessage('');
      setStatus('investigating');
      setImpact('minor');
      onOpened(incident);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;

  return (
    <div className="incident-open">
      <h3 id="open-incident-heading">Open an incident</h3>
      <form className="form" aria-labelledby="open-incident-heading" onSubmit={onSubmit} noValidate>
        {invalid ? (
          <ProblemAlert error={error} title="The incident was not opened: correct the fields marked below" />
        ) : (
          <ProblemAlert error={error} title="The incident was not opened" />
        )}
        <TextField
          id="incident-title"
          label="Title"
          required
          maxLength={200}
          placeholder="e.g. Checkout is slow"
          value={title}
          onChange={setTitle}
          error={local.title ?? fieldError(error, 'title')}
        />
        <div className="rule-form-grid">
          <SelectField
            id="incident-impact"
            label="Impact"
            value={impact}
            onChange={setImpact}
            options={IMPACTS}
            error={fieldError(error, 'impact')}
          />
          <SelectField
            id="incident-status"
            label="Status"
            value={status}
            onChange={setStatus}
            options={INCIDENT_STATUSES}
            error={fieldError(error, 'status')}
          />
        </div>
        <TextAreaField
          id="incident-message"
          label="First update"
          required
          rows={3}
          maxLength={5000}
          hint="What the public reads first: what is affected, and what you are doing."
          value={message}
          onChange={setMessage}
          error={local.message ?? fieldError(error, 'message')}
        />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Opening…' : 'Open incident'}
        </button>
      </form>
    </div>
  );
}

function IncidentItem({
  pageId,
  incident,
  canWrite,
  onUpdated,
}: {
  pageId: string;
  incident: Incident;
  canWrite: boolean;
  onUpdated: (incident: Incident) => void;
}) {
  const headingId = useId();
  const [note, setNote] = useState<string | null>(null);
  const resolved = incident.status === 'resolved';
  return (
    <li className="incident" data-incident-id={incident.id}>
      <article aria-labelledby={headingId}>
        <div className="destination-head">
          <h3 id={headingId}>{incident.title}</h3>
          <p className="check-badges">
            <ImpactBadge impact={incident.impact} />
            <IncidentStatusBadge status={incident.status} />
          </p>
        </div>
        <p className="small muted">
          Opened {formatDateTime(incident.created_at)}
          {incident.resolved_at ? ` · resolved ${formatDateTime(incident.resolved_at)}` : ''}
        </p>
        <ol className="incident-updates" aria-label={`Updates to ${incident.title}, oldest first`}>
          {incident.updates.map((update) => (
            <li key={update.id} className="incident-update">
              <p className="incident-update-head">
                <strong>{incidentStatusLabel(update.status)}</strong>{' '}
                <time className="small muted" dateTime={update.created_at}>
                  {formatDateTime(update.created_at)}
                </time>
              </p>
              <p className="incident-update-message">{update.message}</p>
            </li>
          ))}
        </ol>
        <div role="status">{note ? <p className="alert alert-success">{note}</p> : null}</div>
        {resolved ? (
          <p className="small muted">
            Resolved: it takes no more updates. If the problem returns, open a new incident.
          </p>
        ) : canWrite ? (
          <UpdateIncidentForm
            pageId={pageId}
            incident={incident}
            onPosted={(updated, status) => {
              setNote(
                status === 'resolved'
                  ? `Resolved “${updated.title}”.`
                  : `Posted an update to “${updated.title}”: ${incidentStatusLabel(status)}.`,
              );
              onUpdated(updated);
            }}
          />
        ) : null}
      </article>
    </li>
  );
}

function UpdateIncidentForm({
  pageId,
  incident,
  onPosted,
}: {
  pageId: string;
  incident: Incident;
  onPosted: (incident: Incident, status: IncidentStatus) => void;
}) {
  const headingId = useId();
  const [status, setStatus] = useState<IncidentStatus>(() => nextIncidentStatus(incident.status));
  const [message, setMessage] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problem = message.trim() ? null : 'Write the update the public reads.';
      setLocal(problem);
      return problem === null;
    },
    send: async () => {
      const updated = await ok(
        api.PATCH('/status-pages/{id}/incidents/{incident_id}', {
          params: { path: { id: pageId, incident_id: incident.id } },
          body: { status, message: message.trim() },
        }),
      );
      setMessage('');
      setStatus(nextIncidentStatus(updated.status));
      onPosted(updated, status);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const id = `incident-${incident.id}`;

  return (
    <form className="form incident-update-form" aria-labelledby={headingId} onSubmit={onSubmit} noValidate>
      <h4 id={headingId} className="h-small">
        Post an update<span className="visually-hidden"> to {incident.title}</span>
      </h4>
      {invalid ? (
        <ProblemAlert error={error} title="The update was not posted: correct the fields marked below" />
      ) : (
        <ProblemAlert error={error} title="The update was not posted" />
      )}
      <SelectField
        id={`${id}-status`}
        label="New status"
        value={status}
        onChange={setStatus}
        options={INCIDENT_STATUSES}
        error={fieldError(error, 'status')}
      />
      <TextAreaField
        id={`${id}-message`}
        label="Message"
        required
        rows={2}
        maxLength={5000}
        value={message}
        onChange={setMessage}
        error={local ?? fieldError(error, 'message')}
      />
      <button type="submit" className="button button-secondary" disabled={busy}>
        {busy ? 'Posting…' : 'Post update'}
        <span className="visually-hidden"> to {incident.title}</span>
      </button>
    </form>
  );
}
