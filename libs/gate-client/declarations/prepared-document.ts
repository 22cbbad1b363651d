import { type CommandContext, PREFIX, readText } from './context';
import type { ApiFailure } from './declaration-api';
import { type DeclarationSource, readDeclarationFile } from './declaration-file';
import { pathSegments } from './document-path';
import { describeMissing, masker, resolveReferences } from './env-references';
import { DECLARATION_EXIT } from './plan';

/** A declaration ready to send: its `${ENV}` references resolved, and how to mask their values in output. */
export interface PreparedDocument {
  document: unknown;
  source: DeclarationSource;
  mask: (text: string) => string;
}

/** Reads and resolves a declaration file; on failure, says why and returns the exit code. */
export function prepareDocument(
  file: string,
  context: CommandContext,
): { ok: true; prepared: PreparedDocument } | { ok: false; code: number } {
  const read = readDeclarationFile(file, (path) => readText(context, path));
  if (!read.ok) {
    for (const line of read.message.split('\n')) context.io.stderr(`${PREFIX}: ${line}`);
    return { ok: false, code: read.kind === 'unreadable' ? DECLARATION_EXIT.usage : DECLARATION_EXIT.error };
  }
  const resolved = resolveReferences(read.source.document, context.env);
  if (!resolved.ok) {
    for (const line of describeMissing(resolved.missing).split('\n')) context.io.stderr(`${PREFIX}: ${line}`);
    return { ok: false, code: DECLARATION_EXIT.usage };
  }
  return {
    ok: true,
    prepared: { document: resolved.document, source: read.source, mask: masker(resolved.values) },
  };
}

/** An API failure on standard error: its message, then each field error with its line in the file. */
export function reportFailure(
  context: CommandContext,
  failure: ApiFailure,
  prepared?: Pick<PreparedDocument, 'source' | 'mask'>,
): void {
  const mask = prepared?.mask ?? ((text: string) => text);
  context.io.stderr(mask(`${PREFIX}: ${failure.message}`));
  for (const { field, message } of failure.fields) {
    // The service names document paths (`monitors.shop.url`) under `document.` when it checks the request body.
    const path = field.replace(/^document\./, '');
    const line = prepared?.source.lineOf(pathSegments(path));
    context.io.stderr(mask(`  ${path}: ${message}${line ? ` (line ${line})` : ''}`));
  }
}
