import { type FormEvent, useState } from 'react';
import { ok, ProblemError, publicApi } from '../api';
import { ProblemAlert } from '../components/ProblemAlert';
import { usePageTitle } from '../components/usePageTitle';
import { storeSession } from '../session';

export function SignInPage({ notice }: { notice: string | null }) {
  usePageTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const login = await ok(publicApi.POST('/auth/login', { body: { email: email.trim(), password } }));
      // Storing the session re-renders the app, which leaves the sign-in page for `next` or the checks.
      storeSession(login.access_token, login.expires_in);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <div className="sign-in">
      <h1>Sign in to Vigil</h1>
      <p className="lead">Review release checks and manage your API keys.</p>
      {notice ? (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      ) : null}
      <form
        className="card form"
        onSubmit={(event) => void submit(event)}
        aria-describedby={error ? 'sign-in-error' : undefined}
      >
        <div className="field">
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <div id="sign-in-error">
          <ProblemAlert
            error={error}
            title={
              error instanceof ProblemError && error.status === 401 ? 'The email or password is not right' : undefined
            }
          />
        </div>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
