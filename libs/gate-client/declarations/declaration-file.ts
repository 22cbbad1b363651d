import { readFileSync } from 'node:fs';
import { isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { printable } from '../check';
import type { PathSegments } from './document-path';

/** A parsed declaration and where its parts are in the file, for messages. */
export interface DeclarationSource {
  /** As plain JSON values. */
  document: unknown;
  /** `line N` of the value at a path (or of its nearest enclosing value that exists); null when unknown. */
  lineOf: (path: PathSegments) => number | null;
}

export type ReadDeclaration =
  | { ok: true; source: DeclarationSource }
  /** `unreadable`: the file is not there (a usage error); `syntax`: it is not YAML or JSON (an invalid document). */
  | { ok: false; kind: 'unreadable' | 'syntax'; message: string };

/** At most this many aliases may be expanded: a small file must not expand into gigabytes. */
const MAX_ALIAS_COUNT = 100;

/** Reads a declaration file, YAML or JSON (JSON is YAML too, and keeps its line numbers). */
export function readDeclarationFile(
  file: string,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): ReadDeclaration {
  let text: string;
  try {
    text = readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, kind: 'unreadable', message: `cannot read ${file}${code ? ` (${code})` : ''}` };
  }
  return parseDeclaration(text, file);
}

/** Parses a declaration's text; syntax errors (and duplicate keys) name their line and column. */
export function parseDeclaration(text: string, file: string): ReadDeclaration {
  const lines = new LineCounter();
  const parsed = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  if (parsed.errors.length) {
    const messages = parsed.errors.slice(0, 10).map((error) => {
      const at = error.linePos?.[0];
      const [first] = error.message.split('\n');
      return `${file}${at ? `:${at.line}:${at.col}` : ''}: ${printable(first.replace(/ at line \d+, column \d+:?$/, ''))}`;
    });
    return { ok: false, kind: 'syntax', message: messages.join('\n') };
  }
  let document: unknown;
  try {
    document = parsed.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return { ok: false, kind: 'syntax', message: `${file}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const lineOf = (path: PathSegments): number | null => {
    let node: unknown = parsed.contents;
    let found = node;
    for (const segment of path) {
      if (!(isMap(node) || isSeq(node))) break;
      node = node.get(segment, true);
      if (node === undefined) break;
      found = node;
    }
    const range = (found as Node | null)?.range;
    return range ? lines.linePos(range[0]).line : null;
  };
  return { ok: true, source: { document, lineOf } };
}
