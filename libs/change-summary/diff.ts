import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch } from 'diff';
// The same layout rules as release-check text comparison (text.ts only: the package index loads canvas).
import { linesMissingFrom, normalizeTextLines } from '../compare/text';

/** Each of `added` and `removed` is cut at this many lines. */
export const MAX_DIFF_LINES = 500;

/**
 * The line diff gives up beyond this many edits: Myers' diff costs O(lines × edits), and past this bound at least
 * one list exceeds MAX_DIFF_LINES anyway, so the result is truncated whichever way it is computed.
 */
const MAX_EDIT_LENGTH = 2 * MAX_DIFF_LINES;

/** Lines of context around each hunk, as `diff -u`. */
const CONTEXT_LINES = 3;

export interface TextDiff {
  /**
   * Unified diff (`diff -u` style, file labels `before` and `after`, 3 lines of context) of the normalized texts;
   * '' when nothing changed. Hunk line numbers count normalized lines, so blank lines are not counted.
   */
  unified: string;
  /** Added lines in order, at most MAX_DIFF_LINES. */
  added: string[];
  /** Removed lines in order, at most MAX_DIFF_LINES. */
  removed: string[];
  /** True when `added` or `removed` was cut at MAX_DIFF_LINES. */
  truncated: boolean;
}

/**
 * Line diff of two page texts. Lines are compared after trimming trailing whitespace; blank lines are ignored and
 * CRLF equals LF. When the texts differ too much for an ordered diff, `unified` replaces the whole text in one hunk
 * and `added`/`removed` are the lines missing from the other side (moved lines are then not reported).
 */
export function diffText(before: string, after: string): TextDiff {
  const beforeLines = normalizeTextLines(before);
  const afterLines = normalizeTextLines(after);
  const added: string[] = [];
  const removed: string[] = [];

  let patch = structuredPatch('before', 'after', joinLines(beforeLines), joinLines(afterLines), undefined, undefined, {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (patch) {
    for (const hunk of patch.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added.push(line.slice(1));
        else if (line.startsWith('-')) removed.push(line.slice(1));
      }
    }
  } else {
    patch = wholeReplacement(beforeLines, afterLines);
    added.push(...linesMissingFrom(afterLines, beforeLines));
    removed.push(...linesMissingFrom(beforeLines, afterLines));
  }

  return {
    unified: patch.hunks.length > 0 ? formatPatch(patch, FILE_HEADERS_ONLY) : '',
    added: added.slice(0, MAX_DIFF_LINES),
    removed: removed.slice(0, MAX_DIFF_LINES),
    truncated: added.length > MAX_DIFF_LINES || removed.length > MAX_DIFF_LINES,
  };
}

/** Whitespace, including the zero-width kinds some pages sprinkle between inline elements. */
const WHITESPACE = /[\s\u200b-\u200d\u2060]+/gu;

/**
 * True when the diff carries no meaningful change: nothing added or removed, or each added line equals its removed
 * counterpart (same position in the lists) once all whitespace is ignored. A truncated diff is never empty, since
 * the lines past the cut were not compared.
 */
export function isEmptyDiff(diff: TextDiff): boolean {
  if (diff.added.length === 0 && diff.removed.length === 0) return true;
  if (diff.truncated || diff.added.length !== diff.removed.length) return false;
  return diff.added.every((line, index) => withoutWhitespace(line) === withoutWhitespace(diff.removed[index]));
}

export function withoutWhitespace(line: string): string {
  return line.replace(WHITESPACE, '');
}

/** Lines as text for the line differ; every line ends in LF so no "No newline at end of file" marker appears. */
function joinLines(lines: string[]): string {
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** A valid unified diff that removes every old line and adds every new one, for when no ordered diff is computed. */
function wholeReplacement(beforeLines: string[], afterLines: string[]): StructuredPatch {
  return {
    oldFileName: 'before',
    newFileName: 'after',
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [
      {
        oldStart: 1,
        oldLines: beforeLines.length,
        newStart: 1,
        newLines: afterLines.length,
        lines: [...beforeLines.map((line) => `-${line}`), ...afterLines.map((line) => `+${line}`)],
      },
    ],
  };
}
