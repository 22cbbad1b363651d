import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { DriftNotice, useDriftConfirm } from '../components/DriftWarning';
import { TextAreaField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { Monitor, StatusPage } from '../types';
import { ComponentsEditor } from './ComponentsEditor';
import {
  absoluteUrl,
  type ComponentDraft,
  componentDrafts,
  componentInputs,
  componentProblems,
  emptyComponent,
  slugFrom,
} from './StatusPageBits';

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,58})[a-z0-9]$/;

/**
 * A status page's title, slug, description and components: creates one (`page` null) or saves the changes. The slug
 * follows the title until it is edited. The API's errors show at their fields; a taken slug at the slug. Saving a page
 * a declaration manages asks first: the change is drift.
 */
export function StatusPageForm({
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
  const drift = useDriftConfirm();
  const managed = { noun: 'status page', declarationKey: page?.declaration_key ?? null };

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
    confirm: (proceed) =>
      drift.confirm(
        managed,
        { title: `Save changes to “${page?.title ?? ''}” by hand?`, confirmLabel: 'Save anyway' },
        proceed,
      ),
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
      <DriftNotice resource={managed} />
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
      {drift.dialog}
    </form>
  );
}
