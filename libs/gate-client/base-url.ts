/** The API version this client speaks: `--base-url` may end in its prefix, as the contract's base URL does. */
const API_PREFIX = '/api/v1';

export type ServiceRoot = { ok: true; root: string } | { ok: false; message: string };

/**
 * The service's root (its origin, plus the path a proxy serves it under, if any) from what `--base-url` may be:
 * the root itself or the contract's base URL (the root + `/api/v1`), with or without a trailing slash. The API is
 * at the root + `/api/v1`, and review links are relative to the root.
 */
export function serviceRoot(raw: string): ServiceRoot {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail(`--base-url is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('--base-url must be an http(s) URL');
  if (url.username || url.password) return fail('--base-url must not contain credentials; pass the API key instead');
  if (url.search || url.hash) return fail('--base-url must not have a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  const root = path.endsWith(API_PREFIX) ? path.slice(0, -API_PREFIX.length) : path;
  // Another version (or the deprecated unversioned alias) would become `/api/v2/api/v1`: say so instead.
  if (/\/api(\/v[^/]*)?$/i.test(root)) {
    return fail(`--base-url must be the service's address or end in ${API_PREFIX}, not ${path}`);
  }
  return { ok: true, root: `${url.origin}${root}` };
}

function fail(message: string): ServiceRoot {
  return { ok: false, message };
}
