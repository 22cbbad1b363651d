import { useState } from 'react';
import { call } from '../api';
import { storeWorkspaceId } from '../session';
import type { Workspace } from '../types';
import { fieldError, ProblemAlert } from './ProblemAlert';
import { useSubmit } from './useSubmit';

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
  const inputId = `${idPrefix}-name`;
  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      setLocal(name.trim() ? null : 'Give the workspace a name, such as your team’s.');
      return Boolean(name.trim());
    },
    send: async () => {
      const created = await call<Workspace>('POST', '/workspaces', { body: { name: name.trim() } });
      setName('');
      storeWorkspaceId(created.id);
    },
  });

  const nameError = local ?? fieldError(error, 'name');
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={inputId}>{label}</label>
        <input
          id={inputId}
          type="text"
          maxLength={100}
          required
          aria-required="true"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${inputId}-error` : undefined}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="e.g. Web team"
        />
        {nameError ? (
          <p id={`${inputId}-error`} className="field-error">
            {nameError}
          </p>
        ) : null}
      </div>
      <ProblemAlert error={error} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Creating…' : submitLabel}
      </button>
    </form>
  );
}
