import { MAX_SUMMARY_LENGTH } from './heuristic';
import { cut, quote } from './text';

export interface ValueChange {
  /** The tracked value's name, e.g. "plan". */
  name: string;
  kind: 'price' | 'number' | 'text';
  /** The value as shown on the page; null when it was not found. */
  before: string | null;
  after: string | null;
  /** Parsed amounts of price and number values; null when not found or not parsed. */
  beforeAmount: number | null;
  afterAmount: number | null;
  /** ISO 4217 code of a price, used to format an amount that has no displayed text. */
  currency: string | null;
}

const LABELS: Record<ValueChange['kind'], string> = { price: 'Price', number: 'Number', text: 'Value' };

/** Longest shown name, shown text value and shown price/number, chosen so any sentence fits MAX_SUMMARY_LENGTH. */
const NAME_LENGTH = 60;
const TEXT_VALUE_LENGTH = 90;
const AMOUNT_LENGTH = 40;

/**
 * One sentence on a tracked value moving, e.g. `Price "plan" changed from $1,299.00 to $1,199.00 (−7.7%).`
 * Prices and numbers show the page's own text (or the formatted amount when there is none) and the relative
 * change when both amounts are known; text values are quoted.
 */
export function valueChangeSummary(input: ValueChange): string {
  const subject = `${LABELS[input.kind]} ${quote(input.name, NAME_LENGTH)}`;
  const before = display(input, input.before, input.beforeAmount);
  const after = display(input, input.after, input.afterAmount);

  let sentence: string;
  if (before === null && after === null) sentence = `${subject} has no value.`;
  else if (before === null) sentence = `${subject} appeared: ${after}.`;
  else if (after === null) sentence = `${subject} disappeared (was ${before}).`;
  else if (before === after) sentence = `${subject} is unchanged at ${after}.`;
  else sentence = `${subject} changed from ${before} to ${after}${relativeChange(input)}.`;
  return cut(sentence, MAX_SUMMARY_LENGTH);
}

/** How a value is shown, or null when it is missing. */
function display(input: ValueChange, text: string | null, amount: number | null): string | null {
  const shown = text?.replace(/\s+/gu, ' ').trim() ?? '';
  if (input.kind === 'text') return text === null ? null : quote(shown, TEXT_VALUE_LENGTH);
  if (shown !== '') return cut(shown, AMOUNT_LENGTH);
  return amount === null ? null : formatAmount(amount, input.kind === 'price' ? input.currency : null);
}

function formatAmount(amount: number, currency: string | null): string {
  if (currency) {
    try {
      return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
    } catch {
      // Not an ISO 4217 code: show the code beside the number instead.
      return `${amount.toLocaleString('en-US')} ${currency}`;
    }
  }
  return amount.toLocaleString('en-US');
}

/** " (−7.7%)" for a price or number whose two amounts are known, '' otherwise (and when one is zero). */
function relativeChange(input: ValueChange): string {
  const { beforeAmount: from, afterAmount: to } = input;
  if (input.kind === 'text' || from === null || to === null || from === 0 || from === to) return '';
  const percent = ((to - from) / Math.abs(from)) * 100;
  if (!Number.isFinite(percent)) return '';
  const size = Math.abs(percent);
  // One decimal place, but keep a tiny change visible rather than printing 0.0%.
  const digits = size >= 0.1 ? size.toFixed(1).replace(/\.0$/, '') : size.toPrecision(1);
  return ` (${percent < 0 ? '\u2212' : '+'}${digits}%)`;
}
