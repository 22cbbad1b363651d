import { useState } from 'react';
import { api, ok } from '../api';
import { TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import { SCOPES } from '../scopes';
import type { ApiKeyWithSecret, Scope } from '../types';

export function CreateKeyForm({ onCreated }: { onCreated: (key: ApiKeyWithSecret) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expires, setExpires] = useState('');
  const [local, setLocal] = useState<{ name?: string; scopes?: string; expires?: string }>({});

  function toggle(scope: Scope, on: boolean) {
    setScopes((current) => (on ? [...current, scope] : current.filter((item) => item !== scope)));
  }

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: typeof local = {};
      if (!name.trim()) problems.name = 'Give the key a name, such as the integration that uses it.';
      if (scopes.length === 0) problems.scopes = 'Pick at least one scope.';
      if (expires) {
        const time = new Date(expires).getTime();
        if (Number.isNaN(time)) problems.expires = 'Enter a valid date and time.';
        else if (time <= Date.now()) problems.expires = 'The expiry must be in the future.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const ordered = SCOPES.map((item) => item.scope).filter((scope) => scopes.includes(scope));
      const key = await ok(
        api.POST('/users/me/api-keys', {
          body: {
            name: name.trim(),
            scopes: ordered,
            ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
          },
        }),
      );
      setName('');
      setScopes([]);
      setExpires('');
      onCreated(key);
    },
  });

  const nameError = local.name ?? fieldError(error, 'name');
  const scopesError = local.scopes ?? fieldError(error, 'scopes');
  const expiresError = local.expires ?? fieldError(error, 'expires_at');

  return (
    <section aria-labelledby="create-key-heading" className="card">
      <h2 id="create-key-heading">Create a key</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          id="key-name"
          label="Name"
          required
          maxLength={100}
          placeholder="e.g. GitHub Actions release gate"
          value={name}
          onChange={setName}
          error={nameError}
        />

        <fieldset className="field scopes" aria-describedby={scopesError ? 'scopes-error' : undefined}>
          <legend>Scopes</legend>
          <p className="hint">A release-gate CI job needs monitors:read and monitors:write.</p>
          <ul className="scope-options">
            {SCOPES.map(({ scope, grants }) => {
              const id = `scope-${scope.replace(':', '-')}`;
              return (
                <li key={scope} className="check">
                  <input
                    id={id}
                    type="checkbox"
                    checked={scopes.includes(scope)}
                    onChange={(event) => toggle(scope, event.target.checked)}
                    aria-describedby={`${id}-grants`}
                  />
                  <label htmlFor={id}>
                    <code>{scope}</code>
                  </label>
                  <span id={`${id}-grants`} className="scope-grants">
                    {grants}
                  </span>
                </li>
              );
            })}
          </ul>
          {scopesError ? (
            <p id="scopes-error" className="field-error">
              {scopesError}
            </p>
          ) : null}
        </fieldset>

        <TextField
          id="key-expires"
          type="datetime-local"
          label="Expires"
          optional
          hint="In your local time. Leave empty for a key that does not expire."
          value={expires}
          onChange={setExpires}
          error={expiresError}
        />

        <ProblemAlert error={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
    </section>
  );
}
