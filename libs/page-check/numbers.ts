/**
 * A number as pages write it. The integer part is either digit groups of three behind one repeated separator
 * (`1,299`, `1.299.000`, `1 299`, `1'299`) or plain digits; an optional decimal part follows after `.` or `,`.
 * A lone separator followed by exactly three digits is therefore a thousands separator (`1,299` → 1299), and one
 * followed by other digit counts is the decimal point (`1,29` → 1.29). A leading 0 is never a thousands group, so
 * `0.125` stays a fraction.
 *
 * Groups: 1 sign, 2 integer part, 3 thousands separator, 4 decimal digits.
 */
const NUMBER_PATTERN =
  /(?<![\d.,])([-+\u2212])?((?:[1-9]\d{0,2}([,.'\u2019 \u00a0\u202f\u2009])\d{3}(?!\d)(?:\3\d{3}(?!\d))*)|\d+)(?:[.,](\d+))?/g;

/**
 * Currency markers written next to an amount, longest first so `US$` wins over `$`. `$` alone and `¥` alone are
 * ambiguous in the wild; they are read as USD and JPY, the most common meanings on the pages monitored.
 */
const CURRENCY_SYMBOLS: ReadonlyArray<readonly [string, string]> = [
  ['US$', 'USD'],
  ['CA$', 'CAD'],
  ['AU$', 'AUD'],
  ['NZ$', 'NZD'],
  ['HK$', 'HKD'],
  ['R$', 'BRL'],
  ['C$', 'CAD'],
  ['A$', 'AUD'],
  ['S$', 'SGD'],
  ['zł', 'PLN'],
  ['Kč', 'CZK'],
  ['$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['¥', 'JPY'],
  ['円', 'JPY'],
  ['₹', 'INR'],
  ['₩', 'KRW'],
  ['₽', 'RUB'],
  ['₺', 'TRY'],
  ['₴', 'UAH'],
  ['₪', 'ILS'],
  ['₫', 'VND'],
  ['฿', 'THB'],
];

const SYMBOL_ALTERNATION = CURRENCY_SYMBOLS.map(([symbol]) => symbol.replace(/\$/g, '\\$')).join('|');
const CURRENCY_BEFORE = new RegExp(`(?:(${SYMBOL_ALTERNATION})|(?<![A-Za-z])([A-Z]{3}))\\s*$`);
const CURRENCY_AFTER = new RegExp(`^\\s*(?:(${SYMBOL_ALTERNATION})|([A-Z]{3})(?![A-Za-z]))`);
const SYMBOL_CODES = new Map(CURRENCY_SYMBOLS);

/** ISO codes that are also everyday upper-case words ("SHOP ALL 20"), so they do not mark a price on their own. */
const AMBIGUOUS_CODES = new Set(['ALL', 'CUP', 'TOP', 'PEN', 'SOS', 'MOP', 'BOB']);
const ISO_CODES = new Set(Intl.supportedValuesOf('currency'));

/** How far before or after a number a currency marker may sit ("CHF 1'299.90", "1 299,50 zł"). */
const MARKER_WINDOW = 8;

interface NumberMatch {
  /** Absolute value, rounded. */
  value: number;
  /** True when a minus sign directly precedes the number (and is not part of a word like "COVID-19"). */
  negative: boolean;
  start: number;
  end: number;
}

function* numbersIn(text: string): Generator<NumberMatch> {
  for (const match of text.matchAll(NUMBER_PATTERN)) {
    const [whole, sign, integerPart, groupSeparator, decimals] = match;
    const signStart = match.index;
    const start = sign === undefined ? signStart : signStart + 1;
    const integer = groupSeparator === undefined ? integerPart : integerPart.split(groupSeparator).join('');
    const value = roundAmount(Number(decimals === undefined ? integer : `${integer}.${decimals}`));
    const beforeSign = signStart > 0 ? text[signStart - 1] : '';
    const negative = (sign === '-' || sign === '\u2212') && !/[\p{L}\p{N}]/u.test(beforeSign);
    yield { value, negative, start, end: signStart + whole.length };
  }
}

/** At most 4 decimals, so `0.1 + 0.2`-style binary artefacts never reach stored values. */
function roundAmount(value: number): number {
  const rounded = Math.round(value * 10_000) / 10_000;
  return Object.is(rounded, -0) ? 0 : rounded;
}

function currencyCode(symbol: string | undefined, code: string | undefined): string | undefined {
  if (symbol !== undefined) return SYMBOL_CODES.get(symbol);
  if (code !== undefined && ISO_CODES.has(code) && !AMBIGUOUS_CODES.has(code)) return code;
  return undefined;
}

/** The currency written directly before or after the number, if any. */
function currencyAround(text: string, start: number, end: number): string | undefined {
  const before = CURRENCY_BEFORE.exec(text.slice(Math.max(0, start - MARKER_WINDOW), start));
  const fromBefore = before ? currencyCode(before[1], before[2]) : undefined;
  if (fromBefore !== undefined) return fromBefore;
  const after = CURRENCY_AFTER.exec(text.slice(end, end + MARKER_WINDOW));
  return after ? currencyCode(after[1], after[2]) : undefined;
}

/**
 * The first price in `text`: the first number written next to a currency marker (so "2 for $10" reads 10 USD), else
 * the first number at all with an unknown currency. Null when the text holds no number. Signs are ignored: a price
 * is an amount, and a dash before it is usually punctuation.
 */
export function parsePrice(text: string): { amount: number; currency: string | null } | null {
  let first: { amount: number; currency: string | null } | null = null;
  for (const number of numbersIn(text)) {
    const currency = currencyAround(text, number.start, number.end);
    if (currency !== undefined) return { amount: number.value, currency };
    first ??= { amount: number.value, currency: null };
  }
  return first;
}

/** The first number in `text` ("1,234", "1.234,5", "-3.5", "42%", "12 items"), or null when there is none. */
export function parseNumber(text: string): number | null {
  for (const number of numbersIn(text)) return number.negative ? -number.value : number.value;
  return null;
}
