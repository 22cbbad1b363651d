import { Fragment, type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { api, ok, ProblemError, WORKSPACE_GONE } from './api';
import { ProblemAlert } from './components/ProblemAlert';
import { usePageTitle } from './components/usePageTitle';
import { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
import { NotFoundPage } from './errors/ErrorPages';
import { useResource } from './hooks/useResource';
import { Link, navigate, safeReturnPath, useLocation } from './router';
import { navEntries, resolveRoute } from './routes';
import {
  clearSession,
  onSessionChange,
  onWorkspaceChange,
  readSession,
  rememberWorkspaceId,
  type Session,
  type WorkspaceChangeReason,
} from './session';
import { SignInPage } from './sign-in/SignInPage';
import type { CurrentUser } from './types';
import { NoWorkspacePage } from './workspace/NoWorkspacePage';

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function RouteTitle({ title }: { title: string }) {
  usePageTitle(title);
  return null;
}

interface WorkspaceNotice {
  reason: WorkspaceChangeReason;
  text: string;
  /** The page it appeared on: it belongs there and is not shown on the next. */
  pathname: string;
}

/** The person's profile as loaded for one session token: `me` is null for a person in no workspace. */
interface Profile {
  token: string;
  me: CurrentUser | null;
  notice: WorkspaceNotice | null;
}

function noticeFor(reason: WorkspaceChangeReason | null, me: CurrentUser): WorkspaceNotice | null {
  const pathname = window.location.pathname;
  if (reason === 'switched') {
    return {
      reason,
      pathname,
      text: `You are now in the workspace “${me.workspace.name}” (your role: ${me.workspace.role ?? 'none'}).`,
    };
  }
  if (reason === 'removed') {
    return {
      reason,
      pathname,
      text: `You are no longer a member of the workspace you were in, so Vigil switched to your default workspace, “${me.workspace.name}”.`,
    };
  }
  return null;
}

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<Session | null>(() => readSession());
  const [notice, setNotice] = useState<string | null>(null);
  // Bumped to load the profile again: after a switch of workspace, or a change to the current one.
  const [userVersion, setUserVersion] = useState(0);
  const reloadUser = useCallback(() => setUserVersion((version) => version + 1), []);
  const workspaceChange = useRef<WorkspaceChangeReason | null>(null);

  useEffect(
    () =>
      onSessionChange((next, reason) => {
        setSession(next);
        if (next) {
          setNotice(null);
          return;
        }
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

  // Another workspace (chosen in the switcher, or the stored one is no longer the person's): load it. A page of one
  // workspace's resource (a release check) gives way to its list.
  useEffect(
    () =>
      onWorkspaceChange((_workspaceId, reason) => {
        workspaceChange.current = reason;
        setUserVersion((version) => version + 1);
        const leaveFor = resolveRoute(window.location.pathname)?.route.onWorkspaceSwitch;
        if (leaveFor) navigate(leaveFor);
      }),
    [],
  );

  const token = session?.token ?? null;
  const profileKey = token ? `${userVersion}:${token}` : null;
  const profile = useResource<Profile>(profileKey, async (signal) => {
    const reason = workspaceChange.current;
    try {
      const me = await ok(api.GET('/users/me', { signal }));
      // The workspace the API acted in (the default one unless chosen) is named on every later call.
      rememberWorkspaceId(me.workspace.id);
      workspaceChange.current = null;
      return { token: token ?? '', me, notice: noticeFor(reason, me) };
    } catch (error) {
      // A 404 with no workspace left: the person belongs to none.
      if (error instanceof ProblemError && error.status === 404 && error.code !== WORKSPACE_GONE) {
        const none = await ok(api.GET('/workspaces', { params: { query: { per_page: 1 } }, signal })).then(
          (list) => list.data.length === 0,
          () => false,
        );
        if (none) {
          workspaceChange.current = null;
          return { token: token ?? '', me: null, notice: null };
        }
      }
      throw error;
    }
  });
  // What was loaded for another session (the person before a sign-out) is never shown.
  const current = profile.data && profile.data.token === token ? profile.data : null;
  const user = current?.me ?? null;
  const noWorkspace = current !== null && current.me === null;
  // The stored workspace is gone: dropping it has already asked for the default one, which is loading.
  const userError =
    profile.error instanceof ProblemError && profile.error.code === WORKSPACE_GONE ? null : profile.error;

  // After an in-app navigation, move focus to the new page so keyboard and screen-reader users start there.
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  const { pathname } = location;
  const workspaceNotice = current?.notice && current.notice.pathname === pathname ? current.notice : null;
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
        ) : userError && !profile.loading ? (
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

  const resolved = resolveRoute(pathname);
  if (resolved?.route.redirect) return <Redirect to={resolved.route.redirect} />;
  const section = resolved?.route.section ?? null;
  const page: ReactNode = resolved?.route.render ? (
    <>
      <RouteTitle title={resolved.route.title} />
      {resolved.route.render({ params: resolved.params, user, reloadUser })}
    </>
  ) : (
    <NotFoundPage />
  );

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
              {navEntries(user).map((entry) => (
                <li key={entry.path}>
                  <Link to={entry.path} aria-current={section === entry.section ? 'page' : undefined}>
                    {entry.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <WorkspaceSwitcher user={user} profileKey={profileKey ?? ''} />
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
