import { type AssertedResponse, assertionProblems, failedAssertions, type ResponseAssertion } from './assertions';
import { extractContent } from './extract';

const json = (body: unknown, overrides: Partial<AssertedResponse> = {}): AssertedResponse => ({
  statusCode: 200,
  responseTimeMs: 120,
  header: (name) => ({ 'content-type': 'application/json; charset=utf-8', 'x-build': '2026.11' })[name] ?? null,
  body: JSON.stringify(body),
  cssText: null,
  ...overrides,
});
/** An HTML response, its texts read by the extraction as a check reads them. */
const html = (body: string): AssertedResponse => ({
  statusCode: 200,
  responseTimeMs: 80,
  header: () => 'text/html',
  body,
  cssText: (selector) => extractContent(body, { texts: [selector] }).texts?.[selector] ?? null,
});
const a = (
  type: ResponseAssertion['type'],
  operator: ResponseAssertion['operator'],
  value: string | null = null,
  property: string | null = null,
): ResponseAssertion => ({ type, property, operator, value });
/** The failures' messages, in order. */
const messages = (assertions: ResponseAssertion[], response: AssertedResponse) =>
  failedAssertions(assertions, response).map((failure) => failure.message);

describe('failedAssertions', () => {
  it('passes and fails each type, naming the actual value in the failure', () => {
    const response = json({
      temp: 83,
      status: 'ok',
      items: [
        { id: 1, price: 3 },
        { id: 2, price: 5 },
      ],
    });
    const cases: [ResponseAssertion, string | null][] = [
      [a('status', 'equals', '200'), null],
      [a('status', 'equals', '201'), 'status code is 200, expected = 201'],
      [a('response_time', 'less_than', '500'), null],
      [a('response_time', 'less_than', '100'), 'response time is 120 ms, expected < 100'],
      [a('header', 'contains', 'json', 'content-type'), null],
      [a('header', 'equals', '2026.12', 'x-build'), 'header x-build is "2026.11", expected = 2026.12'],
      [a('header', 'exists', null, 'x-missing'), 'header x-missing is missing, expected to exist'],
      [a('header', 'not_exists', null, 'x-missing'), null],
      [a('json_path', 'less_than', '80', '$.temp'), '$.temp is 83, expected < 80'],
      [a('json_path', 'equals', 'ok', '$.status'), null],
      [a('json_path', 'equals', '5', '$.items[?(@.id==2)].price'), null],
      [a('json_path', 'exists', null, '$.missing'), '$.missing is missing, expected to exist'],
      [a('body_regex', 'contains', '"status":"ok"'), null],
      [a('body_regex', 'matches', '"temp":\\d{3}'), 'body does not match /"temp":\\d{3}/'],
      [a('body_regex', 'not_contains', 'temp'), 'body contains "temp"'],
    ];
    for (const [assertion, expected] of cases) {
      expect({ assertion, failures: messages([assertion], response) }).toEqual({
        assertion,
        failures: expected === null ? [] : [expected],
      });
    }
  });

  it('reads the text of the first element a CSS selector matches', () => {
    const page = html('<main><p class="price"> 49 </p><p class="price">99</p><h1>Plans</h1></main>');
    expect(messages([a('css_text', 'less_than_or_equal', '50', '.price')], page)).toEqual([]);
    expect(messages([a('css_text', 'matches', '^Pricing', 'h1')], page)).toEqual([
      'text of h1 is "Plans", expected to match /^Pricing/',
    ]);
    expect(messages([a('css_text', 'exists', null, '.banner')], page)).toEqual([
      'text of .banner is missing, expected to exist',
    ]);
  });

  it('fails a JSONPath condition on a body that is not JSON with the reason, and a CSS one on a body that is not HTML', () => {
    const page = html('<h1>Down for maintenance</h1>');
    const [failure] = messages([a('json_path', 'equals', 'ok', '$.status')], page);
    expect(failure).toMatch(/^\$\.status: the body is not JSON \(Unexpected token/);
    expect(messages([a('css_text', 'exists', null, 'h1')], json({}))).toEqual(['text of h1: the body is not HTML']);
  });

  it('reports every failed condition, in order', () => {
    const response = json({ temp: 83 });
    expect(
      messages(
        [
          a('json_path', 'less_than', '80', '$.temp'),
          a('status', 'equals', '200'),
          a('header', 'exists', null, 'etag'),
        ],
        response,
      ),
    ).toEqual(['$.temp is 83, expected < 80', 'header etag is missing, expected to exist']);
  });

  it('lists each failed assertion with the value read as text: JSON for a non-string, null when nothing was read', () => {
    const response = json({ temp: 83, station: 'Lyon', readings: [{ ok: true }] });
    const temp = a('json_path', 'less_than', '80', '$.temp');
    const readings = a('json_path', 'equals', '[]', '$.readings');
    const etag = a('header', 'exists', null, 'etag');
    const status = a('status', 'equals', '201');
    expect(failedAssertions([temp, readings, etag, status], response)).toEqual([
      { ...temp, actual: '83', message: '$.temp is 83, expected < 80' },
      { ...readings, actual: '[{"ok":true}]', message: '$.readings is [{"ok":true}], expected = []' },
      { ...etag, actual: null, message: 'header etag is missing, expected to exist' },
      { ...status, actual: '200', message: 'status code is 200, expected = 201' },
    ]);
    const [notJson] = failedAssertions([temp], html('<h1>Down</h1>'));
    expect(notJson.actual).toBeNull();
  });

  it('keeps at most 200 characters of a body, without NUL, for a failed body_regex', () => {
    const body = `${'\u0000'.repeat(3)}${'x'.repeat(500)}`;
    const [failure] = failedAssertions([a('body_regex', 'matches', '^y')], json(null, { body }));
    expect(failure).toMatchObject({ type: 'body_regex', actual: 'x'.repeat(200), message: 'body does not match /^y/' });
  });

  it('compares a number with a value that is not one as a failure, not a crash', () => {
    expect(messages([a('json_path', 'greater_than', '1', '$.status')], json({ status: 'ok' }))).toEqual([
      '$.status is "ok", not a number, expected > 1',
    ]);
  });
});

describe('assertionProblems', () => {
  it('accepts what can be evaluated', () => {
    expect(assertionProblems(a('json_path', 'less_than', '80', '$.temp'))).toEqual([]);
    expect(assertionProblems(a('header', 'exists', null, 'etag'))).toEqual([]);
  });

  it('names the field of each problem', () => {
    expect(assertionProblems(a('json_path', 'equals', 'x', 'temp'))[0].field).toBe('property');
    expect(assertionProblems(a('header', 'equals', 'x'))[0]).toEqual({
      field: 'property',
      message: 'is required for header: the header name, such as content-type',
    });
    expect(assertionProblems(a('status', 'contains', '2'))[0].field).toBe('operator');
    expect(assertionProblems(a('status', 'equals', 'ok'))).toEqual([{ field: 'value', message: 'must be a number' }]);
    expect(assertionProblems(a('body_regex', 'contains'))).toEqual([
      { field: 'value', message: 'is required for contains' },
    ]);
    expect(assertionProblems(a('header', 'exists', 'x', 'etag'))).toEqual([
      { field: 'value', message: 'is not used by exists' },
    ]);
    expect(assertionProblems(a('css_text', 'exists', null, 'p[')).map((problem) => problem.field)).toEqual([
      'property',
    ]);
  });

  it('refuses a pattern RE2 does not take (backtracking constructs), so no pattern can hang a check', () => {
    const [problem] = assertionProblems(a('body_regex', 'matches', '(a+)+(?=b)'));
    expect(problem.field).toBe('value');
    expect(problem.message).toMatch(/^is not a regular expression RE2 accepts/);
  });
});
