import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { call } from './api';
import { ProblemAlert } from './components/ProblemAlert';
import { AdminPage } from './pages/AdminPage';
import { ApiKeysPage } from './pages/ApiKeysPage';
import { NotFoundPage, NotPermittedPage } from './pages/StatusPages';
import { ReleaseCheckPage } from './pages/ReleaseCheckPage';
import { ReleaseChecksPage } from './pages/ReleaseChecksPage';
import { SignInPage } from './pages/SignInPage';
import { Link, match, navigate, safeReturnPath, useLocation } from './router';
import { clearSession, onSessionChange, readSession, type Session } from './session';
import type { CurrentUser } from './types';

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<Session | null>(() => readSession());
  const [user, setUser] = useState<CurrentUser | null>(null);
  const [userError, setUserError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(
    () =>
      onSessionChange((next, reason) => {
        setSession(next);
        if (next) {
          setNotice(null);
          return;
        }
        setUser(null);
        setNotice(
          reason === 'signed_out'
            ? 'You have signed out.'
            : 'Your session has ended (it expired or is no longer valid). Sign in again to continue.',
        );
        const here = `${window.location.pathname}${window.location.search}`;
        const back = reason === 'signed_out' ? null : safeReturnPath(here);
        navigate(back ? `/sign-in?next=${encodeURIComponent(back)}` : '/sign-in', { replace: true });
      }),
    [],
  );

  // The session ends by itself when its token expires, even with no request in flight.
  useEffect(() => {
    if (!session) return;
    const delay = Math.min(Math.max(session.expiresAt - Date.now() - 5_000, 0), 2 ** 31 - 1);
    const timer = setTimeout(() => clearSession('expired'), delay);
    return () => clearTimeout(timer);
  }, [session]);

  const token = session?.token;
  useEffect(() => {
    if (!token) return;
    let live = true;
    setUserError(null);
    call<CurrentUser>('GET', '/users/me').then(
      (me) => live && setUser(me),
      (error: unknown) => live && setUserError(error),
    );
    return () => {
      live = false;
    };
  }, [token]);

  // After an in-app navigation, move focus to the new page so keyboard and screen-reader users start there.
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  const { pathname } = location;

  if (pathname === '/sign-in') {
    if (session) return <Redirect to={safeReturnPath(location.search.get('next')) ?? '/release-checks'} />;
    return (
      <PublicLayout mainRef={mainRef}>
        <SignInPage notice={notice} />
      </PublicLayout>
    );
  }
  if (!session) {
    const back = safeReturnPath(location.href);
    return <Redirect to={back && back !== '/' ? `/sign-in?next=${encodeURIComponent(back)}` : '/sign-in'} />;
  }
  if (!user) {
    return (
      <PublicLayout mainRef={mainRef}>
        {userError ? (
          <>
            <h1>Vigil could not load your account</h1>
            <ProblemAlert error={userError} />
            <button type="button" className="button" onClick={() => clearSession('signed_out')}>
              Sign out
            </button>
          </>
        ) : (
          <p className="loading" role="status">
            Loading…
          </p>
        )}
      </PublicLayout>
    );
  }

  let page: ReactNode;
  let section: 'checks' | 'keys' | 'admin' | null = null;
  let params: Record<string, string> | null;
  if (pathname === '/' || pathname === '') {
    page = <Redirect to="/release-checks" />;
  } else if (match('/release-checks', pathname)) {
    section = 'checks';
    page = <ReleaseChecksPage />;
  } else if ((params = match('/release-checks/:id', pathname))) {
    section = 'checks';
    page = <ReleaseCheckPage key={params.id} id={params.id} />;
  } else if (match('/settings', pathname)) {
    page = <Redirect to="/settings/api-keys" />;
  } else if (match('/settings/api-keys', pathname)) {
    section = 'keys';
    page = <ApiKeysPage />;
  } else if (match('/admin', pathname)) {
    section = 'admin';
    page = user.role === 'admin' ? <AdminPage /> : <NotPermittedPage />;
  } else {
    page = <NotFoundPage />;
  }

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="site-header">
        <div className="site-header-inner">
          <Link to="/release-checks" className="brand">
            <span className="brand-mark" aria-hidden="true" />
            Vigil
          </Link>
          <nav className="site-nav" aria-label="Main">
            <ul>
              <li>
                <Link to="/release-checks" aria-current={section === 'checks' ? 'page' : undefined}>
                  Release checks
                </Link>
              </li>
              <li>
                <Link to="/settings/api-keys" aria-current={section === 'keys' ? 'page' : undefined}>
                  API keys
                </Link>
              </li>
              {user.role === 'admin' ? (
                <li>
                  <Link to="/admin" aria-current={section === 'admin' ? 'page' : undefined}>
                    Admin
                  </Link>
                </li>
              ) : null}
            </ul>
          </nav>
          <div className="site-user">
            <span className="site-user-email" title={user.email}>
              {user.email}
              <span className="visually-hidden">, {user.role}</span>
            </span>
            <button type="button" className="button button-small button-ghost" onClick={() => clearSession()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="site-main" ref={mainRef} tabIndex={-1}>
        {page}
      </main>
    </>
  );
}

function PublicLayout({ children, mainRef }: { children: ReactNode; mainRef: RefObject<HTMLElement | null> }) {
  return (
    <>
      <header className="site-header">
        <div className="site-header-inner">
          <span className="brand">
            <span className="brand-mark" aria-hidden="true" />
            Vigil
          </span>
        </div>
      </header>
      <main id="main" className="site-main site-main-narrow" ref={mainRef} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
