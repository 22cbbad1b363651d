import { useState } from 'react';
import { api, ok } from '../api';
import { TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { CurrentUser } from '../types';

export function SettingsForm({ me, onSaved }: { me: CurrentUser; onSaved: () => void }) {
  const workspace = me.workspace;
  const [name, setName] = useState(workspace.name);
  const [distinct, setDistinct] = useState(workspace.review_policy.require_distinct_reviewer);
  const [local, setLocal] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      setSaved(null);
      setLocal(name.trim() ? null : 'The workspace needs a name.');
      return Boolean(name.trim());
    },
    send: async () => {
      const updated = await ok(
        api.PATCH('/workspaces/{id}', {
          params: { path: { id: workspace.id } },
          body: { name: name.trim(), review_policy: { require_distinct_reviewer: distinct } },
        }),
      );
      setName(updated.name);
      setDistinct(updated.review_policy.require_distinct_reviewer);
      setSaved(
        updated.review_policy.require_distinct_reviewer
          ? 'Saved. A second person must now approve each release check.'
          : 'Saved. Whoever opened a release check may also approve it.',
      );
      onSaved();
    },
  });

  const nameError = local ?? fieldError(error, 'name');
  return (
    <section aria-labelledby="settings-heading" className="card">
      <h2 id="settings-heading">Settings</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          id="workspace-name"
          label="Name"
          required
          maxLength={100}
          value={name}
          onChange={setName}
          error={nameError}
        />
        <div className="field check">
          <input
            id="require-distinct-reviewer"
            type="checkbox"
            checked={distinct}
            onChange={(event) => setDistinct(event.target.checked)}
            aria-describedby="require-distinct-reviewer-hint"
          />
          <label htmlFor="require-distinct-reviewer">Require a second person to approve release checks</label>
          <span id="require-distinct-reviewer-hint" className="scope-grants">
            The person who opened a check (signed in, or with an API key they created) cannot approve it; they can still
            reject it.
          </span>
        </div>
        <ProblemAlert error={error} />
        {saved ? (
          <p className="alert alert-success" role="status">
            {saved}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      </form>
    </section>
  );
}

export function ReviewPolicyInfo({ me }: { me: CurrentUser }) {
  const distinct = me.workspace.review_policy.require_distinct_reviewer;
  return (
    <section aria-labelledby="policy-heading" className="card">
      <h2 id="policy-heading">Review policy</h2>
      <p>
        {distinct
          ? 'A second person must approve each release check: whoever opened a check cannot approve it (they can still reject it).'
          : 'Any member or admin may approve a release check, including the person who opened it.'}
      </p>
      <p className="small muted">Viewers can read release checks but not review them. Admins change this policy.</p>
    </section>
  );
}
