import { compareText } from './text';

/**
 * Lines a monitor has seen move on their own, kept as patterns: each run of digits is written `#`, so a server's
 * timestamp or request number is one pattern however often it ticks, while a line whose words changed is its own.
 */
export const MAX_VOLATILE_LINES = 200;

export function lineShape(line: string): string {
  return line.replace(/\d+/g, '#');
}

/** The text without the lines whose shape is volatile; the very same string when nothing is volatile. */
export function stableText(text: string, volatileShapes: readonly string[]): string {
  if (volatileShapes.length === 0) return text;
  const volatile = new Set(volatileShapes);
  return text
    .split('\n')
    .filter((line) => !volatile.has(lineShape(line.trim())))
    .join('\n');
}

/**
 * The volatile shapes after two looks at one page moments apart: the known ones, and the shapes of the lines that
 * one look had and the other did not (at most MAX_VOLATILE_LINES, the newest kept).
 */
export function learnVolatileLines(known: readonly string[], first: string, second: string): string[] {
  const moved = compareText(first, second);
  const shapes = new Set(known);
  for (const line of [...moved.removed, ...moved.added]) shapes.add(lineShape(line.trim()));
  return [...shapes].slice(-MAX_VOLATILE_LINES);
}
