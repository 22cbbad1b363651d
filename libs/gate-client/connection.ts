import { serviceRoot } from './base-url';

/** An option's value, or why the command line is wrong (a usage error). */
export type OptionValue<T> = { ok: true; value: T } | { ok: false; message: string };

/** The options every command that talks to the service takes, the way `vigil-gate` takes them. */
export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
} as const;

/** `--base-url` (required) as the service's root: the API is at the root + `/api/v1`. */
export function baseUrlOption(raw: string | undefined): OptionValue<string> {
  if (!raw) return { ok: false, message: '--base-url is required' };
  const root = serviceRoot(raw);
  return root.ok ? { ok: true, value: root.root } : root;
}

/** `--api-key`, else env VIGIL_API_KEY (preferred: a command line is visible to other processes). */
export function apiKeyOption(raw: string | undefined, env: Record<string, string | undefined>): OptionValue<string> {
  const apiKey = raw || (env.VIGIL_API_KEY ?? '').trim();
  return apiKey
    ? { ok: true, value: apiKey }
    : { ok: false, message: 'an API key is required: --api-key or env VIGIL_API_KEY' };
}

/** A number of seconds above 0 and at most `max`; `fallback` when the option is absent. */
export function secondsOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  max: number,
): OptionValue<number> {
  if (raw === undefined) return { ok: true, value: fallback };
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(value > 0 && value <= max)) {
    return { ok: false, message: `--${name} must be a number of seconds above 0, at most ${max}` };
  }
  return { ok: true, value };
}

/** A string option's value, trimmed; undefined when absent or blank. */
export function stringValue(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value.trim() || undefined : undefined;
}
