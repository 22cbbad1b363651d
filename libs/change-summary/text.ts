/** Longest quoted excerpt of a line in a summary, ellipsis included. */
export const QUOTE_LENGTH = 60;

/** `text` with whitespace runs collapsed, cut to `max` characters (ending in …), in double quotes. */
export function quote(text: string, max = QUOTE_LENGTH): string {
  return `"${cut(text.replace(/\s+/gu, ' ').trim(), max)}"`;
}

/** `text` cut to at most `max` UTF-16 units, ending in … when cut; never splits a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let result = '';
  for (const char of text) {
    if (result.length + char.length > max - 1) break;
    result += char;
  }
  return `${result}…`;
}
