import picomatch from 'picomatch';

/** Query parameters that only track where a visitor came from; they never name another page. */
const TRACKING_PARAMETER = /^(utm_.+|gclid|fbclid)$/i;

/**
 * The URL a found link stands for: resolved against `base`, without its fragment or tracking parameters. Null for
 * anything that is not an http(s) URL (mailto:, javascript:, data:...) or does not parse.
 */
export function normalizeUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  const tracking = [...url.searchParams.keys()].filter((name) => TRACKING_PARAMETER.test(name));
  for (const name of tracking) url.searchParams.delete(name);
  // `?` alone (all parameters were tracking) is the same page as none.
  if (url.search === '?') url.search = '';
  return url.href;
}

/** The options shared by validation and matching, so a glob that validates is matched the same way. */
const GLOB_OPTIONS: picomatch.PicomatchOptions = { strictBrackets: true, dot: true };

/** Why a path glob is malformed, or null when it compiles. */
export function globProblem(glob: string): string | null {
  if (!glob.startsWith('/') && !glob.startsWith('*')) return 'must start with / (it is matched against the path)';
  try {
    picomatch.makeRe(glob, GLOB_OPTIONS);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Whether a URL's path is in scope: matched by an include glob (when any) and by no exclude glob. */
export function pathFilter(include: string[], exclude: string[]): (url: string) => boolean {
  const included = include.length ? picomatch(include, GLOB_OPTIONS) : () => true;
  const excluded = exclude.length ? picomatch(exclude, GLOB_OPTIONS) : () => false;
  return (url) => {
    const path = decodePath(new URL(url).pathname);
    return included(path) && !excluded(path);
  };
}

function decodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
