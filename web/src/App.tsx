import { Fragment, type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { call, ProblemError, WORKSPACE_GONE } from './api';
import { ProblemAlert } from './components/ProblemAlert';
import { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
import { AdminPage } from './pages/AdminPage';
import { ApiKeysPage } from './pages/ApiKeysPage';
import { NotFoundPage, NotPermittedPage } from './pages/StatusPages';
import { ReleaseCheckPage } from './pages/ReleaseCheckPage';
import { ReleaseChecksPage } from './pages/ReleaseChecksPage';
import { SignInPage } from './pages/SignInPage';
import { NoWorkspacePage, WorkspacePage } from './pages/WorkspacePage';
import { Link, match, navigate, safeReturnPath, useLocation } from './router';
import {
  clearSession,
  onSessionChange,
  onWorkspaceChange,
  readSession,
  rememberWorkspaceId,
  type Session,
  type WorkspaceChangeReason,
} from './session';
import type { CurrentUser, WorkspaceList } from './types';

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
  const [noWorkspace, setNoWorkspace] = useState(false);
  // Bumped to load the profile again: after a switch of workspace, or a change to the current one.
  const [userVersion, setUserVersion] = useState(0);
  const reloadUser = useCallback(() => setUserVersion((version) => version + 1), []);
  const workspaceChange = useRef<WorkspaceChangeReason | null>(null);
  const [workspaceNotice, setWorkspaceNotice] = useState<{ reason: WorkspaceChangeReason; text: string } | null>(null);

  useEffect(
    () =>
      onSessionChange((next, reason) => {
        setSession(next);
        if (next) {
          setNotice(null);
          return;
        }
        setUser(null);
        setNoWorkspace(false);
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

  // Another workspace (chosen in the switcher, or the stored one is no longer the person's): load it. A release
  // check belongs to one workspace, so its page gives way to the list.
  useEffect(
    () =>
      onWorkspaceChange((_workspaceId, reason) => {
        workspaceChange.current = reason;
        setUserVersion((version) => version + 1);
        if (match('/release-checks/:id', window.location.pathname)) navigate('/release-checks');
      }),
    [],
  );

  const token = session?.token;
  useEffect(() => {
    if (!token) return;
    let live = true;
    setUserError(null);
    call<CurrentUser>('GET', '/users/me').then(
      (me) => {
        if (!live) return;
        // The workspace the API acted in (the default one unless chosen) is named on every later call.
        rememberWorkspaceId(me.workspace.id);
        setNoWorkspace(false);
        setUser(me);
        const reason = workspaceChange.current;
        workspaceChange.current = null;
        if (reason === 'switched') {
          setWorkspaceNotice({
            reason,
            text: `You are now in the workspace “${me.workspace.name}” (your role: ${me.workspace.role ?? 'none'}).`,
          });
        } else if (reason === 'removed') {
          setWorkspaceNotice({
            reason,
            text: `You are no longer a member of the workspace you were in, so Vigil switched to your default workspace, “${me.workspace.name}”.`,
          });
        }
      },
      async (error: unknown) => {
        if (!live) return;
        // The stored workspace is gone; dropping it has already asked for the default one.
        if (error instanceof ProblemError && error.code === WORKSPACE_GONE) return;
        if (error instanceof ProblemError && error.status === 404) {
          const none = await call<WorkspaceList>('GET', '/workspaces', { query: { per_page: 1 } }).then(
            (list) => list.data.length === 0,
            () => false,
          );
          if (!live) return;
          if (none) {
            workspaceChange.current = null;
            setUser(null);
            setNoWorkspace(true);
            return;
          }
        }
        setUserError(error);
      },
    );
    return () => {
      live = false;
    };
  }, [token, userVersion]);

  // After an in-app navigation, move focus to the new page so keyboard and screen-reader users start there.
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  const { pathname } = location;
  // A workspace notice belongs to the page it appeared on.
  useEffect(() => setWorkspaceNotice(null), [pathname]);
  // A switch remounts the page; if that took the focus with it (leaving a workspace from its page), start at main.
  useEffect(() => {
    if (workspaceNotice && (!document.activeElement || document.activeElement === document.body)) {
      mainRef.current?.focus({ preventScroll: true });
    }
  }, [workspaceNotice]);

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
        {noWorkspace ? (
          <NoWorkspacePage />
        ) : userError ? (
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
  let section: 'checks' | 'keys' | 'workspace' | 'admin' | null = null;
  let params: Record<string, string> | null;
  if (pathname === '/' || pathname === '') {
    page = <Redirect to="/release-checks" />;
  } else if (match('/release-checks', pathname)) {
    section = 'checks';
    page = <ReleaseChecksPage />;
  } else if ((params = match('/release-checks/:id', pathname))) {
    section = 'checks';
    page = <ReleaseCheckPage key={params.id} id={params.id} me={user} />;
  } else if (match('/settings', pathname)) {
    page = <Redirect to="/settings/api-keys" />;
  } else if (match('/settings/api-keys', pathname)) {
    section = 'keys';
    page = <ApiKeysPage me={user} />;
  } else if (match('/workspace', pathname)) {
    section = 'workspace';
    page = <WorkspacePage me={user} onChanged={reloadUser} />;
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
              <li>
                <Link to="/workspace" aria-current={section === 'workspace' ? 'page' : undefined}>
                  Workspace
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
          <WorkspaceSwitcher user={user} />
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
        {workspaceNotice ? (
          <p
            className={`alert ${workspaceNotice.reason === 'removed' ? 'alert-warning' : 'alert-success'} workspace-notice`}
            role={workspaceNotice.reason === 'removed' ? 'alert' : 'status'}
          >
            {workspaceNotice.text}
          </p>
        ) : null}
        {/* Each workspace's data is its own: a switch mounts the page afresh, which loads it again. */}
        <Fragment key={user.workspace.id}>{page}</Fragment>
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
