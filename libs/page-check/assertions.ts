import { JSONPath } from 'jsonpath-plus';
import { RE2JS } from 're2js';
import { isValidCssSelector } from './extract';

export const ASSERTION_TYPES = ['status', 'response_time', 'header', 'json_path', 'body_regex', 'css_text'] as const;
export type AssertionType = (typeof ASSERTION_TYPES)[number];

export const ASSERTION_OPERATORS = [
  'equals',
  'not_equals',
  'less_than',
  'less_than_or_equal',
  'greater_than',
  'greater_than_or_equal',
  'contains',
  'not_contains',
  'matches',
  'not_matches',
  'exists',
  'not_exists',
] as const;
export type AssertionOperator = (typeof ASSERTION_OPERATORS)[number];

/** A condition on a response: what to read (`type`, and `property` of it), how to compare, and with what. */
export interface ResponseAssertion {
  type: AssertionType;
  /** The header's name, the JSONPath expression or the CSS selector; null for the other types. */
  property: string | null;
  operator: AssertionOperator;
  /** What to compare with; null for `exists` and `not_exists`. */
  value: string | null;
}

/** An assertion the response did not meet, with the value read and the failure in words. */
export interface FailedAssertion extends ResponseAssertion {
  /** What was read, as text (cut at ACTUAL_CHARS); null when there was nothing to read. */
  actual: string | null;
  /** "$.temp is 83, expected < 80". */
  message: string;
}

/** How much of a value read a failed assertion keeps: enough to see why, never a whole body. */
export const ACTUAL_CHARS = 200;

/** What assertions read of a response. */
export interface AssertedResponse {
  statusCode: number;
  responseTimeMs: number;
  header(name: string): string | null;
  /** The decoded body; null when it is not text. */
  body: string | null;
  /**
   * The text of the first element a selector matches (null: none matches), read from the page's one parse; null when
   * the body is not HTML (or XML).
   */
  cssText: ((selector: string) => string | null) | null;
}

const NUMERIC: readonly AssertionOperator[] = [
  'less_than',
  'less_than_or_equal',
  'greater_than',
  'greater_than_or_equal',
];
const PRESENCE: readonly AssertionOperator[] = ['exists', 'not_exists'];
const TEXT: readonly AssertionOperator[] = ['contains', 'not_contains', 'matches', 'not_matches'];

/** The operators each type takes. */
const OPERATORS: Record<AssertionType, readonly AssertionOperator[]> = {
  status: ['equals', 'not_equals', ...NUMERIC],
  response_time: NUMERIC,
  header: ASSERTION_OPERATORS,
  json_path: ASSERTION_OPERATORS,
  body_regex: TEXT,
  css_text: ASSERTION_OPERATORS,
};
const NEEDS_PROPERTY: readonly AssertionType[] = ['header', 'json_path', 'css_text'];

const SYMBOL: Partial<Record<AssertionOperator, string>> = {
  equals: '=',
  not_equals: '≠',
  less_than: '<',
  less_than_or_equal: '≤',
  greater_than: '>',
  greater_than_or_equal: '≥',
};

/**
 * What is wrong with an assertion, field by field (`property`, `operator`, `value`); empty when it can be evaluated.
 * Regular expressions are RE2 (linear time, whatever the pattern and the body), so a pattern can be refused here and
 * never hang a check.
 */
export function assertionProblems(assertion: ResponseAssertion): { field: string; message: string }[] {
  const { type, property, operator, value } = assertion;
  const problems: { field: string; message: string }[] = [];
  if (NEEDS_PROPERTY.includes(type) && property === null) {
    problems.push({ field: 'property', message: `is required for ${type}: ${propertyHint(type)}` });
  }
  if (!NEEDS_PROPERTY.includes(type) && property !== null) {
    problems.push({ field: 'property', message: `is not used by ${type}` });
  }
  if (type === 'json_path' && property !== null && !property.startsWith('$')) {
    problems.push({ field: 'property', message: 'must be a JSONPath expression starting with $, such as $.status' });
  }
  if (type === 'css_text' && property !== null && !isValidCssSelector(property)) {
    problems.push({ field: 'property', message: 'is not a valid CSS selector' });
  }
  if (!OPERATORS[type].includes(operator)) {
    problems.push({ field: 'operator', message: `must be one of ${OPERATORS[type].join(', ')} for ${type}` });
    return problems;
  }
  if (PRESENCE.includes(operator)) {
    if (value !== null) problems.push({ field: 'value', message: `is not used by ${operator}` });
  } else if (value === null) {
    problems.push({ field: 'value', message: `is required for ${operator}` });
  } else if ((NUMERIC.includes(operator) || type === 'status') && !isNumber(value)) {
    problems.push({ field: 'value', message: 'must be a number' });
  } else if ((operator === 'matches' || operator === 'not_matches') && regexProblem(value)) {
    problems.push({ field: 'value', message: `is not a regular expression RE2 accepts: ${regexProblem(value)}` });
  }
  return problems;
}

/** What an assertion read: nothing (a missing header, a JSONPath or selector matching nothing), or a value. */
type Reading = { found: false } | { found: true; value: unknown };

/**
 * The conditions the response fails, in order, each with the value read and a message naming both ("$.temp is 83,
 * expected < 80"); empty when all hold. Assertions are checked with assertionProblems first; a body that cannot be
 * read as asked (not JSON, not HTML) fails the condition with the reason.
 */
export function failedAssertions(
  assertions: readonly ResponseAssertion[],
  response: AssertedResponse,
): FailedAssertion[] {
  const failures: FailedAssertion[] = [];
  let json: { value: unknown } | { error: string } | undefined;
  const fail = (assertion: ResponseAssertion, actual: Reading, message: string) =>
    failures.push({ ...assertion, actual: actual.found ? actualText(actual.value) : null, message });
  for (const assertion of assertions) {
    const label = labelOf(assertion);
    let actual: Reading;
    switch (assertion.type) {
      case 'status':
        actual = { found: true, value: response.statusCode };
        break;
      case 'response_time':
        actual = { found: true, value: response.responseTimeMs };
        break;
      case 'header': {
        const header = response.header(assertion.property!);
        actual = header === null ? { found: false } : { found: true, value: header };
        break;
      }
      case 'body_regex':
        if (response.body === null) {
          fail(assertion, { found: false }, 'body is not text');
          continue;
        }
        actual = { found: true, value: response.body };
        break;
      case 'json_path': {
        json ??= parseJson(response.body);
        if ('error' in json) {
          fail(assertion, { found: false }, `${label}: the body is not JSON (${json.error})`);
          continue;
        }
        const matches = JSONPath({ path: assertion.property!, json: json.value as object, wrap: true }) as unknown[];
        actual = matches.length ? { found: true, value: matches[0] } : { found: false };
        break;
      }
      case 'css_text': {
        if (response.cssText === null) {
          fail(assertion, { found: false }, `${label}: the body is not HTML`);
          continue;
        }
        const text = response.cssText(assertion.property!);
        actual = text === null ? { found: false } : { found: true, value: text };
        break;
      }
    }
    const message = compare(assertion, label, actual);
    if (message) fail(assertion, actual, message);
  }
  return failures;
}

/**
 * A value read, as a failed assertion keeps it: text as it is, anything else as JSON; cut at ACTUAL_CHARS, and
 * storable as PostgreSQL text and jsonb (no NUL, no lone surrogate).
 */
function actualText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return [...text.replaceAll('\u0000', '')].slice(0, ACTUAL_CHARS).join('').toWellFormed();
}

function compare({ operator, value, type }: ResponseAssertion, label: string, actual: Reading): string | null {
  if (operator === 'exists') return actual.found ? null : `${label} is missing, expected to exist`;
  if (!actual.found) return operator === 'not_exists' ? null : `${label} is missing`;
  const shown = type === 'body_regex' ? 'the body' : show(actual.value, type);
  if (operator === 'not_exists') return `${label} is ${shown}, expected not to exist`;
  const expected = value!;
  const text = typeof actual.value === 'string' ? actual.value : JSON.stringify(actual.value);
  const holds = (() => {
    switch (operator) {
      case 'equals':
        return sameValue(actual.value, expected);
      case 'not_equals':
        return !sameValue(actual.value, expected);
      case 'contains':
        return text.includes(expected);
      case 'not_contains':
        return !text.includes(expected);
      case 'matches':
        return compiled(expected).matcher(text).find();
      case 'not_matches':
        return !compiled(expected).matcher(text).find();
      default: {
        const number = toNumber(actual.value);
        if (number === null) return false;
        const bound = Number(expected);
        if (operator === 'less_than') return number < bound;
        if (operator === 'less_than_or_equal') return number <= bound;
        if (operator === 'greater_than') return number > bound;
        return number >= bound;
      }
    }
  })();
  if (holds) return null;
  if (type === 'body_regex') {
    const verb = { contains: 'does not contain', not_contains: 'contains', matches: 'does not match' }[
      operator as string
    ];
    const shown = operator.endsWith('matches') ? `/${expected}/` : JSON.stringify(expected);
    return `body ${verb ?? 'matches'} ${shown}`;
  }
  if (NUMERIC.includes(operator) && toNumber(actual.value) === null) {
    return `${label} is ${shown}, not a number, expected ${describe(operator, expected)}`;
  }
  return `${label} is ${shown}, expected ${describe(operator, expected)}`;
}

function describe(operator: AssertionOperator, expected: string): string {
  const symbol = SYMBOL[operator];
  if (symbol) return `${symbol} ${expected}`;
  const words: Partial<Record<AssertionOperator, string>> = {
    contains: 'to contain',
    not_contains: 'not to contain',
    matches: 'to match',
    not_matches: 'not to match',
  };
  const shown = operator.endsWith('matches') ? `/${expected}/` : JSON.stringify(expected);
  return `${words[operator]} ${shown}`;
}

/** Numbers compare as numbers (`"83"` equals 83.0); everything else as its text (JSON for objects). */
function sameValue(actual: unknown, expected: string): boolean {
  const number = toNumber(actual);
  if (number !== null && isNumber(expected)) return number === Number(expected);
  return (typeof actual === 'string' ? actual : JSON.stringify(actual)) === expected;
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && isNumber(value)) return Number(value);
  return null;
}

function isNumber(text: string): boolean {
  return /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(text);
}

function show(value: unknown, type: AssertionType): string {
  if (type === 'response_time') return `${String(value)} ms`;
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function labelOf({ type, property }: ResponseAssertion): string {
  switch (type) {
    case 'status':
      return 'status code';
    case 'response_time':
      return 'response time';
    case 'header':
      return `header ${property}`;
    case 'json_path':
      return property!;
    case 'body_regex':
      return 'body';
    case 'css_text':
      return `text of ${property}`;
  }
}

function propertyHint(type: AssertionType): string {
  if (type === 'header') return 'the header name, such as content-type';
  if (type === 'json_path') return 'a JSONPath expression such as $.status';
  return 'a CSS selector such as .price';
}

function parseJson(body: string | null): { value: unknown } | { error: string } {
  if (body === null) return { error: 'it is not text' };
  try {
    return { value: JSON.parse(body) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Patterns compiled once per process (a monitor's patterns are the same on every check), at most 1,000 kept. */
const patterns = new Map<string, RE2JS>();

function compiled(pattern: string): RE2JS {
  let regex = patterns.get(pattern);
  if (!regex) {
    if (patterns.size >= 1000) patterns.clear();
    regex = RE2JS.compile(pattern);
    patterns.set(pattern, regex);
  }
  return regex;
}

function regexProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
