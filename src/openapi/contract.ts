import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';

/** The project root: the nearest folder above this file holding package.json (works from src/ and dist/). */
export function projectRoot(start = __dirname): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const CONTRACT_PATH = join(projectRoot(), 'openapi.yaml');

export interface Contract {
  yaml: string;
  document: Record<string, unknown>;
}

let parsed: Contract | undefined;

/**
 * openapi.yaml, the source of truth of the public API. Read and parsed once per process (a boot reads it twice, and
 * each test file's validator again), with js-yaml: the file is half a megabyte, which `yaml` parses five times slower.
 * Each caller gets its own copy of the document, free to change.
 */
export function loadContract(): Contract {
  if (parsed === undefined) {
    const yaml = readFileSync(CONTRACT_PATH, 'utf8');
    parsed = { yaml, document: load(yaml) as Record<string, unknown> };
  }
  return { yaml: parsed.yaml, document: structuredClone(parsed.document) };
}
