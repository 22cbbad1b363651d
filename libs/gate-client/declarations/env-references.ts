import { documentPath } from './document-path';

/** `${NAME}`, or `$${NAME}`: the escape for a literal `${NAME}`. Names as a shell's variables. */
const REFERENCE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** Values shorter than this are not masked in output: masking `1` or `on` would garble every line. */
const MIN_MASKED_LENGTH = 4;

export interface MissingVariable {
  name: string;
  /** Where the document refers to it. */
  path: string;
  empty: boolean;
}

/** What the resolved document holds that came from the environment: each value, and the reference it replaced. */
export type ResolvedValues = ReadonlyMap<string, string>;

export type Resolution =
  { ok: true; document: unknown; values: ResolvedValues } | { ok: false; missing: MissingVariable[] };

/**
 * Replaces `${NAME}` references in every string value of the document (not in keys) with the environment's values.
 * A variable that is not set, or set to nothing, is not silently sent as an empty secret: every one is reported.
 */
export function resolveReferences(document: unknown, env: Record<string, string | undefined>): Resolution {
  const missing: MissingVariable[] = [];
  const values = new Map<string, string>();
  const resolve = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value === 'string') {
      return value.replace(REFERENCE, (reference: string, escape: string, name: string) => {
        if (escape) return reference.slice(1);
        const found = env[name];
        if (found === undefined || found === '') {
          missing.push({ name, path: documentPath(path), empty: found === '' });
          return reference;
        }
        values.set(found, `\${${name}}`);
        return found;
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => resolve(item, [...path, index]));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, [...path, key])]));
    }
    return value;
  };
  const resolved = resolve(document, []);
  return missing.length ? { ok: false, missing } : { ok: true, document: resolved, values };
}

/** A usage error's text for the variables a document needs and the environment lacks. */
export function describeMissing(missing: MissingVariable[]): string {
  const byName = new Map<string, MissingVariable[]>();
  for (const entry of missing) byName.set(entry.name, [...(byName.get(entry.name) ?? []), entry]);
  return [...byName.entries()]
    .map(([name, uses]) => {
      const where = uses.map((use) => use.path).join(', ');
      return `environment variable ${name} is ${uses[0].empty ? 'empty' : 'not set'} (referred to at ${where})`;
    })
    .join('\n');
}

/**
 * A function that puts the references back in place of the values they resolved to, so that what a command
 * prints never shows a value taken from the environment (a secret), whatever the service answers.
 */
export function masker(values: ResolvedValues): (text: string) => string {
  // Longest first, so a value that contains another is masked whole.
  const masked = [...values.entries()]
    .filter(([value]) => value.length >= MIN_MASKED_LENGTH)
    .sort(([a], [b]) => b.length - a.length);
  return (text) => masked.reduce((out, [value, reference]) => out.split(value).join(reference), text);
}

/** `masker` applied to every string of a JSON value (keys too), so the result is still the same JSON. */
export function maskDeep(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, mask));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [mask(key), maskDeep(item, mask)]));
  }
  return value;
}
