import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

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

/** openapi.yaml, the source of truth of the public API. */
export function loadContract(): Contract {
  const yaml = readFileSync(CONTRACT_PATH, 'utf8');
  return { yaml, document: parse(yaml) as Record<string, unknown> };
}
