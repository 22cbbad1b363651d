import { diffArrays } from 'diff';
import type { TextComparison } from './types';

/** Each of `added` and `removed` is cut at this many lines. */
export const MAX_TEXT_DIFF_LINES = 500;

/**
 * The line diff gives up beyond this many edits. Myers' diff costs O(lines × edits); an unbounded diff of two
 * unrelated 2,000-line pages blocks the event loop for ~1.5 s. Past this bound at least one list exceeds
 * MAX_TEXT_DIFF_LINES anyway, so the result is truncated whichever way it is computed.
 */
const MAX_EDIT_LENGTH = 2 * MAX_TEXT_DIFF_LINES;

/** CRLF/CR to LF, trailing whitespace trimmed, blank lines dropped: layout noise is not a content change. */
export function normalizeTextLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
}

/** Line-level diff of the rendered text of production (old) against preview (new). */
export function compareText(production: string, preview: string): TextComparison {
  // The same text has no differences: skip splitting and diffing both.
  if (production === preview) return { changed: false, added: [], removed: [], truncated: false };
  const productionLines = normalizeTextLines(production);
  const previewLines = normalizeTextLines(preview);
  const added: string[] = [];
  const removed: string[] = [];

  const changes = diffArrays(productionLines, previewLines, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes) {
    for (const change of changes) {
      if (change.added) added.push(...change.value);
      else if (change.removed) removed.push(...change.value);
    }
  } else {
    // Too many edits for an ordered diff: fall back to a multiset difference (moved lines are not reported).
    added.push(...linesMissingFrom(previewLines, productionLines));
    removed.push(...linesMissingFrom(productionLines, previewLines));
  }

  const truncated = added.length > MAX_TEXT_DIFF_LINES || removed.length > MAX_TEXT_DIFF_LINES;
  return {
    changed: added.length > 0 || removed.length > 0,
    added: added.slice(0, MAX_TEXT_DIFF_LINES),
    removed: removed.slice(0, MAX_TEXT_DIFF_LINES),
    truncated,
  };
}

/** Lines of `lines` (in order) left over after matching each line of `other` at most once. */
export function linesMissingFrom(lines: string[], other: string[]): string[] {
  const available = new Map<string, number>();
  for (const line of other) available.set(line, (available.get(line) ?? 0) + 1);
  const missing: string[] = [];
  for (const line of lines) {
    const count = available.get(line) ?? 0;
    if (count > 0) available.set(line, count - 1);
    else missing.push(line);
  }
  return missing;
}
