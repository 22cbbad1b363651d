import { isEmptyDiff, MAX_DIFF_LINES, withoutWhitespace, type TextDiff } from './diff';
import { cut, quote } from './text';

/** Upper bound on a summary's length (a tweet's worth: it is shown in lists and notifications). */
export const MAX_SUMMARY_LENGTH = 280;

/**
 * Removed/added lines considered for pairing by word overlap. Pairing is quadratic; a summary only shows one
 * example, so looking further into a huge diff would cost time without changing the text much.
 */
const MAX_SIMILARITY_CANDIDATES = 200;

/** Word overlap (Jaccard) at which a removed and an added line count as one edited line. */
const SIMILARITY_THRESHOLD = 0.5;

/** Number-ish tokens: digits with inner separators (1,299.00 · 2024-05-01 · 10:30), an optional currency sign or %. */
const NUMBER_TOKEN = /[$€£¥₹]?\d+(?:[.,:/-]\d+)*%?/gu;
const CURRENCY = /[$€£¥₹]|\b(?:USD|EUR|GBP|JPY|INR|CHF|CAD|AUD)\b/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Changed tokens shown per line, and the longest a shown token may be. */
const MAX_TOKENS_SHOWN = 3;
const MAX_TOKEN_LENGTH = 20;

interface NumberChange {
  /** The added line. */
  line: string;
  /** Changed tokens, before → after. */
  pairs: [string, string][];
  price: boolean;
}

interface Edit {
  from: string;
  to: string;
}

interface Pairing {
  numbers: NumberChange[];
  edits: Edit[];
  /** Lines present on both sides (up to whitespace): moved or reformatted. */
  moved: number;
  added: string[];
  removed: string[];
}

/** A summary clause: the full form, and a shorter one used when the full one does not fit. */
interface Clause {
  full: string;
  compact: string;
}

/**
 * A short plain-English summary (at most MAX_SUMMARY_LENGTH characters) of a diff: numbers that changed within
 * otherwise identical lines, lines edited in place, then lines added and removed, each with a quoted example.
 * Deterministic: the same diff always gives the same text.
 */
export function heuristicSummary(diff: TextDiff): string {
  if (isEmptyDiff(diff)) {
    return diff.added.length > 0 ? 'Only whitespace or line order changed.' : 'No text changed.';
  }
  const pairing = pairLines(diff.added, diff.removed);
  const clauses: Clause[] = [];

  if (pairing.numbers.length > 0) clauses.push(numberClause(pairing.numbers));
  if (pairing.edits.length > 0) clauses.push(editClause(pairing.edits));
  if (pairing.added.length > 0) {
    clauses.push(listClause('added', pairing.added, countLabel(pairing.added.length, diff.added.length, diff)));
  }
  if (pairing.removed.length > 0) {
    clauses.push(listClause('removed', pairing.removed, countLabel(pairing.removed.length, diff.removed.length, diff)));
  }
  if (pairing.moved > 0) {
    const text = `${lineCount(String(pairing.moved), pairing.moved)} moved or reformatted`;
    clauses.push({ full: text, compact: text });
  }
  return assemble(clauses);
}

/** Joins clauses with "; ", falling back to compact forms (or leaving a clause out) to stay within the limit. */
function assemble(clauses: Clause[]): string {
  const render = (parts: string[]): string => {
    const sentence = `${parts.join('; ')}.`;
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  };
  const parts: string[] = [];
  for (const clause of clauses) {
    if (render([...parts, clause.full]).length <= MAX_SUMMARY_LENGTH) parts.push(clause.full);
    else if (render([...parts, clause.compact]).length <= MAX_SUMMARY_LENGTH) parts.push(clause.compact);
  }
  // Every clause's compact form is short, so this cut is a safety net rather than a path taken in practice.
  return cut(render(parts), MAX_SUMMARY_LENGTH);
}

/**
 * Pairs removed lines with added ones: first identical lines (up to whitespace), then lines equal except for
 * numbers, then lines sharing most of their words. What is left was purely added or removed.
 */
function pairLines(addedLines: string[], removedLines: string[]): Pairing {
  const addedUsed = new Array<boolean>(addedLines.length).fill(false);
  const removedUsed = new Array<boolean>(removedLines.length).fill(false);
  const numbers: NumberChange[] = [];
  const edits: Edit[] = [];
  let moved = 0;

  const byText = indexBy(addedLines, withoutWhitespace);
  removedLines.forEach((line, r) => {
    const a = takeFirst(byText.get(withoutWhitespace(line)), addedUsed);
    if (a === undefined) return;
    addedUsed[a] = removedUsed[r] = true;
    moved++;
  });

  const bySkeleton = indexBy(addedLines, skeleton);
  removedLines.forEach((line, r) => {
    if (removedUsed[r]) return;
    const before = line.match(NUMBER_TOKEN);
    if (!before) return;
    const a = takeFirst(bySkeleton.get(skeleton(line)), addedUsed);
    if (a === undefined) return;
    const after = addedLines[a].match(NUMBER_TOKEN) ?? [];
    const pairs = before.flatMap((token, i): [string, string][] => (token === after[i] ? [] : [[token, after[i]]]));
    // Equal skeletons imply equally many numbers, and identical lines were paired above; this only guards that.
    if (after.length !== before.length || pairs.length === 0) return;
    addedUsed[a] = removedUsed[r] = true;
    numbers.push({ line: addedLines[a], pairs, price: CURRENCY.test(line) || CURRENCY.test(addedLines[a]) });
  });

  const addedWords = addedLines.map((line, a) =>
    addedUsed[a] || a >= MAX_SIMILARITY_CANDIDATES ? undefined : words(line),
  );
  removedLines.slice(0, MAX_SIMILARITY_CANDIDATES).forEach((line, r) => {
    if (removedUsed[r]) return;
    const removedWords = words(line);
    let best: number | undefined;
    let bestScore = SIMILARITY_THRESHOLD;
    addedWords.forEach((candidate, a) => {
      if (!candidate || addedUsed[a]) return;
      const score = jaccard(removedWords, candidate);
      if (score > bestScore || (score === bestScore && best === undefined)) {
        best = a;
        bestScore = score;
      }
    });
    if (best === undefined) return;
    addedUsed[best] = removedUsed[r] = true;
    edits.push({ from: line, to: addedLines[best] });
  });

  return {
    numbers,
    edits,
    moved,
    added: addedLines.filter((_, a) => !addedUsed[a]),
    removed: removedLines.filter((_, r) => !removedUsed[r]),
  };
}

function numberClause(changes: NumberChange[]): Clause {
  const [first] = changes;
  const shown = first.pairs
    .slice(0, MAX_TOKENS_SHOWN)
    .map(([from, to]) => `${cut(from, MAX_TOKEN_LENGTH)} → ${cut(to, MAX_TOKEN_LENGTH)}`)
    .join(', ');
  const more = first.pairs.length > MAX_TOKENS_SHOWN ? ', …' : '';
  if (changes.length === 1) {
    const label = first.price ? 'price changed' : first.pairs.length > 1 ? 'numbers changed' : 'number changed';
    return { full: `${label}: ${shown}${more} in ${quote(first.line)}`, compact: `${label}: ${shown}${more}` };
  }
  const label = changes.every((change) => change.price) ? 'prices changed' : 'numbers changed';
  return {
    full: `${label} in ${changes.length} lines, e.g. ${shown}${more} in ${quote(first.line)}`,
    compact: `${label} in ${changes.length} lines`,
  };
}

function editClause(edits: Edit[]): Clause {
  const [first] = edits;
  const example = `${quote(first.from)} to ${quote(first.to)}`;
  if (edits.length === 1) return { full: `changed ${example}`, compact: `changed ${quote(first.from, 30)}` };
  const count = lineCount(String(edits.length), edits.length);
  return { full: `changed ${count}, e.g. ${example}`, compact: `changed ${count}` };
}

function listClause(verb: 'added' | 'removed', lines: string[], count: string): Clause {
  const compact = `${verb} ${count}`;
  const example = lines.length === 1 ? quote(lines[0]) : `e.g. ${quote(lines[0])}`;
  return { full: `${compact} (${example})`, compact };
}

/** "3 lines", or "480+ lines" when the list was cut and more lines exist beyond what was compared. */
function countLabel(unpaired: number, listed: number, diff: TextDiff): string {
  const more = diff.truncated && listed >= MAX_DIFF_LINES ? '+' : '';
  return lineCount(`${unpaired}${more}`, more ? 2 : unpaired);
}

function lineCount(count: string, n: number): string {
  return `${count} ${n === 1 ? 'line' : 'lines'}`;
}

/**
 * The line with every number replaced by a placeholder: lines differing only in numbers share it. Whitespace runs
 * are collapsed, not removed, so that two lines with equal skeletons always hold the same count of numbers.
 */
function skeleton(line: string): string {
  return line.replace(/\s+/gu, ' ').trim().replace(NUMBER_TOKEN, '\u0000');
}

function words(line: string): Set<string> {
  return new Set(line.toLowerCase().match(WORD) ?? []);
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Line indexes grouped by key, in order. */
function indexBy(lines: string[], key: (line: string) => string): Map<string, number[]> {
  const index = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const k = key(line);
    const list = index.get(k);
    if (list) list.push(i);
    else index.set(k, [i]);
  });
  return index;
}

/** The first index in `candidates` not yet used. */
function takeFirst(candidates: number[] | undefined, used: boolean[]): number | undefined {
  return candidates?.find((i) => !used[i]);
}
