import { readFileSync, writeFileSync } from 'node:fs';
import type { LineIO } from '../process-io';

/** What a command needs from its process; tests pass their own. */
export interface CommandContext {
  env: Record<string, string | undefined>;
  io: LineIO;
  readFile?: (path: string) => string;
  writeFile?: (path: string, text: string) => void;
  /** Asks a yes/no question of the person at the terminal; null when there is no terminal to ask on. */
  confirm?: ((question: string) => Promise<boolean>) | null;
  /** The transport of HTTP requests; the global fetch by default. */
  fetch?: typeof fetch;
}

export const readText = (context: CommandContext, path: string): string =>
  (context.readFile ?? ((file: string) => readFileSync(file, 'utf8')))(path);

export const writeText = (context: CommandContext, path: string, text: string): void =>
  (context.writeFile ?? ((file: string, data: string) => writeFileSync(file, data)))(path, text);

/** The prefix of every message of the `vigil` command about itself (not the gate's, which keeps `vigil-gate:`). */
export const PREFIX = 'vigil';
