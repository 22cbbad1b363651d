import { useState } from 'react';
import { api, ok } from '../api';
import { TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import { storeWorkspaceId } from '../session';

/** Creates a workspace (the person becomes its admin) and switches to it. */
export function CreateWorkspaceForm({
  idPrefix,
  label,
  submitLabel,
}: {
  idPrefix: string;
  label: string;
  submitLabel: string;
}) {
  const [name, setName] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      setLocal(name.trim() ? null : 'Give the workspace a name, such as your team’s.');
      return Boolean(name.trim());
    },
    send: async () => {
      const created = await ok(api.POST('/workspaces', { body: { name: name.trim() } }));
      setName('');
      storeWorkspaceId(created.id);
    },
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <TextField
        id={`${idPrefix}-name`}
        label={label}
        required
        maxLength={100}
        placeholder="e.g. Web team"
        value={name}
        onChange={setName}
        error={local ?? fieldError(error, 'name')}
      />
      <ProblemAlert error={error} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Creating…' : submitLabel}
      </button>
    </form>
  );
}
