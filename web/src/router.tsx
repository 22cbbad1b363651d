import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

/** A very small history router: the API serves index.html for every path outside /api, /docs, /health, /metrics. */
const EVENT = 'vigil:navigate';

function subscribe(callback: () => void): () => void {
  window.addEventListener('popstate', callback);
  window.addEventListener(EVENT, callback);
  return () => {
    window.removeEventListener('popstate', callback);
    window.removeEventListener(EVENT, callback);
  };
}

const snapshot = () => `${window.location.pathname}${window.location.search}`;

export interface Location {
  pathname: string;
  search: URLSearchParams;
  href: string;
}

export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  return { pathname: url.pathname, search: url.searchParams, href };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.scrollTo(0, 0);
  window.dispatchEvent(new Event(EVENT));
}

/** A same-origin path that is safe to return to after sign-in. */
export function safeReturnPath(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/sign-in')) return null;
  return value;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}

/** Matches `/release-checks/:id` style patterns. */
export function match(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < want.length; index += 1) {
    if (want[index].startsWith(':')) params[want[index].slice(1)] = decodeURIComponent(have[index]);
    else if (want[index] !== have[index]) return null;
  }
  return params;
}

/** A path with a query string of the parameters that have a value (`page` 1 is left out: it is the default). */
export function withQuery(path: string, params: Record<string, string | number | boolean | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || (name === 'page' && value === 1)) continue;
    query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A positive page number from the query, 1 when absent or malformed. */
export function pageParam(search: URLSearchParams): number {
  return Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
}
