import type { ReactNode } from 'react';
import { A11yScanPage } from './accessibility/A11yScanPage';
import { AccessibilityPage } from './accessibility/AccessibilityPage';
import { AdminPage } from './admin/AdminPage';
import { AlertsPage } from './alerts/AlertsPage';
import { DeliveriesPage } from './alerts/DeliveriesPage';
import { DeliveryPage } from './alerts/DeliveryPage';
import { ApiKeysPage } from './api-keys/ApiKeysPage';
import { ChangePage } from './changes/ChangePage';
import { ChangesPage } from './changes/ChangesPage';
import { CrawlPage } from './crawl/CrawlPage';
import { CrawlsPage } from './crawl/CrawlsPage';
import { NotPermittedPage } from './errors/ErrorPages';
import { MaintenancePage } from './maintenance/MaintenancePage';
import { MonitorFormPage } from './monitors/MonitorFormPage';
import { MonitorPage } from './monitors/MonitorPage';
import { MonitorsPage } from './monitors/MonitorsPage';
import { ReleaseCheckPage } from './release-checks/ReleaseCheckPage';
import { ReleaseChecksPage } from './release-checks/ReleaseChecksPage';
import { ReportPage } from './reports/ReportPage';
import { ReportsPage } from './reports/ReportsPage';
import { match } from './router';
import { StatusPagePage } from './status-pages/StatusPagePage';
import { StatusPagesPage } from './status-pages/StatusPagesPage';
import type { CurrentUser } from './types';
import { WorkspacePage } from './workspace/WorkspacePage';

/** What a page gets from the app shell. */
export interface RouteContext {
  params: Record<string, string>;
  user: CurrentUser;
  /** Loads the person's profile again (after a change to their workspace or role). */
  reloadUser: () => void;
}

export interface RouteDef {
  /** A path pattern: `/release-checks/:id`. */
  path: string;
  /** The document title while the page has none more specific. */
  title: string;
  /** The main menu entry whose section this page belongs to. */
  section: string;
  /** In the main menu, in the table's order; `adminOnly` entries only for administrators. */
  nav?: { label: string; adminOnly?: boolean };
  /**
   * One workspace's resource (a release check): on a switch of workspace the page gives way to this list.
   */
  onWorkspaceSwitch?: string;
  redirect?: string;
  render?: (context: RouteContext) => ReactNode;
}

/** Every page of the interface. The first match wins; a path that matches none is "Page not found". */
export const ROUTES: RouteDef[] = [
  { path: '/', title: 'Release checks', section: 'checks', redirect: '/release-checks' },
  {
    path: '/monitors',
    title: 'Monitors',
    section: 'monitors',
    nav: { label: 'Monitors' },
    render: ({ user }) => <MonitorsPage me={user} />,
  },
  {
    path: '/monitors/new',
    title: 'New monitor',
    section: 'monitors',
    render: ({ user }) => <MonitorFormPage id={null} me={user} />,
  },
  {
    path: '/monitors/:id',
    title: 'Monitor',
    section: 'monitors',
    onWorkspaceSwitch: '/monitors',
    render: ({ params, user }) => <MonitorPage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/monitors/:id/edit',
    title: 'Edit monitor',
    section: 'monitors',
    onWorkspaceSwitch: '/monitors',
    render: ({ params, user }) => <MonitorFormPage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/crawls',
    title: 'Crawl',
    section: 'crawl',
    nav: { label: 'Crawl' },
    render: ({ user }) => <CrawlsPage me={user} />,
  },
  {
    path: '/crawls/:id',
    title: 'Crawl',
    section: 'crawl',
    onWorkspaceSwitch: '/crawls',
    render: ({ params, user }) => <CrawlPage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/changes',
    title: 'Changes',
    section: 'changes',
    nav: { label: 'Changes' },
    render: () => <ChangesPage />,
  },
  {
    path: '/changes/:id',
    title: 'Change',
    section: 'changes',
    onWorkspaceSwitch: '/changes',
    render: ({ params, user }) => <ChangePage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/accessibility',
    title: 'Accessibility',
    section: 'accessibility',
    nav: { label: 'Accessibility' },
    render: ({ user }) => <AccessibilityPage me={user} />,
  },
  {
    path: '/accessibility/scans/:id',
    title: 'Accessibility scan',
    section: 'accessibility',
    onWorkspaceSwitch: '/accessibility',
    render: ({ params, user }) => <A11yScanPage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/alerts',
    title: 'Alert destinations',
    section: 'alerts',
    nav: { label: 'Alerts' },
    render: ({ user }) => <AlertsPage me={user} />,
  },
  {
    path: '/alerts/deliveries',
    title: 'Delivery log',
    section: 'alerts',
    render: ({ user }) => <DeliveriesPage me={user} />,
  },
  {
    path: '/alerts/deliveries/:id',
    title: 'Delivery',
    section: 'alerts',
    onWorkspaceSwitch: '/alerts/deliveries',
    render: ({ params, user }) => <DeliveryPage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/maintenance',
    title: 'Maintenance',
    section: 'maintenance',
    nav: { label: 'Maintenance' },
    render: ({ user }) => <MaintenancePage me={user} />,
  },
  {
    path: '/status-pages',
    title: 'Status pages',
    section: 'status-pages',
    nav: { label: 'Status pages' },
    render: ({ user }) => <StatusPagesPage me={user} />,
  },
  {
    path: '/status-pages/:id',
    title: 'Status page',
    section: 'status-pages',
    onWorkspaceSwitch: '/status-pages',
    render: ({ params, user }) => <StatusPagePage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/reports',
    title: 'Reports',
    section: 'reports',
    nav: { label: 'Reports' },
    render: ({ user }) => <ReportsPage me={user} />,
  },
  {
    path: '/reports/:id',
    title: 'Report',
    section: 'reports',
    onWorkspaceSwitch: '/reports',
    render: ({ params, user }) => <ReportPage key={params.id} id={params.id} me={user} />,
  },
  {
    path: '/release-checks',
    title: 'Release checks',
    section: 'checks',
    nav: { label: 'Release checks' },
    render: () => <ReleaseChecksPage />,
  },
  {
    path: '/release-checks/:id',
    title: 'Release check',
    section: 'checks',
    onWorkspaceSwitch: '/release-checks',
    render: ({ params, user }) => <ReleaseCheckPage key={params.id} id={params.id} me={user} />,
  },
  { path: '/settings', title: 'API keys', section: 'keys', redirect: '/settings/api-keys' },
  {
    path: '/settings/api-keys',
    title: 'API keys',
    section: 'keys',
    nav: { label: 'API keys' },
    render: ({ user }) => <ApiKeysPage me={user} />,
  },
  {
    path: '/workspace',
    title: 'Workspace',
    section: 'workspace',
    nav: { label: 'Workspace' },
    render: ({ user, reloadUser }) => <WorkspacePage me={user} onChanged={reloadUser} />,
  },
  {
    path: '/admin',
    title: 'Admin',
    section: 'admin',
    nav: { label: 'Admin', adminOnly: true },
    render: ({ user }) => (user.role === 'admin' ? <AdminPage /> : <NotPermittedPage />),
  },
];

/** The route a path shows, with its parameters; null for "Page not found". */
export function resolveRoute(pathname: string): { route: RouteDef; params: Record<string, string> } | null {
  for (const route of ROUTES) {
    const params = match(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

/** The main menu: the routes with an entry, those for administrators only when the person is one. */
export function navEntries(user: CurrentUser): { path: string; label: string; section: string }[] {
  return ROUTES.filter((route) => route.nav && (!route.nav.adminOnly || user.role === 'admin')).map((route) => ({
    path: route.path,
    label: route.nav!.label,
    section: route.section,
  }));
}
