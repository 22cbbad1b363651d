import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chatCompletionsUrl,
  diffText,
  heuristicSummary,
  isEmptyDiff,
  MAX_DIFF_LINES,
  MAX_LLM_SUMMARY_LENGTH,
  MAX_SUMMARY_LENGTH,
  summarizeChange,
  valueChangeSummary,
  type LlmSummaryOptions,
} from './index';

interface ReceivedRequest {
  url: string | undefined;
  authorization: string | undefined;
  body: unknown;
}

/** A stand-in OpenAI-compatible endpoint on 127.0.0.1 that records what it receives. */
class StandInServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly server: Server;

  constructor(private readonly answer: (response: ServerResponse) => void) {
    this.server = createServer((request, response) => {
      void this.record(request).then(() => this.answer(response));
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1/chat/completions`;
  }

  async close(): Promise<void> {
    // A server that never answers still holds its sockets; close() alone would wait for them.
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async record(request: IncomingMessage): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    this.requests.push({ url: request.url, authorization: request.headers.authorization, body: JSON.parse(text) });
  }
}

function json(status: number, body: string): (response: ServerResponse) => void {
  return (response) => response.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

const PRICE_CHANGE = diffText('Pricing\nPro plan $29/month\nFree plan', 'Pricing\nPro plan $39/month\nFree plan');

describe('diffText', () => {
  it('finds no change in identical text', () => {
    const diff = diffText('Hello\nWorld', 'Hello\nWorld');
    expect(diff).toEqual({ unified: '', added: [], removed: [], truncated: false });
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('ignores trailing whitespace, blank lines and line endings', () => {
    const diff = diffText('Hello\n\nWorld\n', 'Hello   \r\n\r\n\r\n  \r\nWorld');
    expect(diff.unified).toBe('');
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('reports a whitespace-only change inside lines, which isEmptyDiff treats as empty', () => {
    const diff = diffText('Hello  world\nBye', '  Hello world\nBye');
    expect(diff.removed).toEqual(['Hello  world']);
    expect(diff.added).toEqual(['  Hello world']);
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('gives a unified diff of a one-line edit', () => {
    const diff = diffText('one\ntwo\nold\nfour', 'one\ntwo\nnew\nfour');
    expect(diff.unified.split('\n')).toEqual([
      '--- before',
      '+++ after',
      '@@ -1,4 +1,4 @@',
      ' one',
      ' two',
      '-old',
      '+new',
      ' four',
      '',
    ]);
    expect(diff).toMatchObject({ added: ['new'], removed: ['old'], truncated: false });
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('keeps three lines of context around a hunk', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const changed = lines.map((line, i) => (i === 10 ? 'changed' : line));
    const hunkLines = diffText(lines.join('\n'), changed.join('\n')).unified.split('\n').slice(2, -1);
    expect(hunkLines).toEqual([
      '@@ -8,7 +8,7 @@',
      ' line 7',
      ' line 8',
      ' line 9',
      '-line 10',
      '+changed',
      ' line 11',
      ' line 12',
      ' line 13',
    ]);
  });

  it('lists added and removed lines in order', () => {
    const diff = diffText('a\nb\nc\nd', 'a\nx\nc\ny\nz');
    expect(diff.removed).toEqual(['b', 'd']);
    expect(diff.added).toEqual(['x', 'y', 'z']);
  });

  it('caps the lists of a huge diff and marks it truncated', () => {
    const before = Array.from({ length: 1200 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 1200 }, (_, i) => `new ${i}`).join('\n');
    const diff = diffText(before, after);
    expect(diff.added).toHaveLength(MAX_DIFF_LINES);
    expect(diff.removed).toHaveLength(MAX_DIFF_LINES);
    expect(diff.truncated).toBe(true);
    expect(diff.unified).toMatch(/^--- before\n\+\+\+ after\n@@ -1,1200 \+1,1200 @@\n-old 0\n/);
    expect(isEmptyDiff(diff)).toBe(false);
  });
});

describe('heuristicSummary', () => {
  it('reports a changed number within an otherwise identical line', () => {
    const summary = heuristicSummary(PRICE_CHANGE);
    expect(summary).toBe('Price changed: $29 → $39 in "Pro plan $39/month".');
  });

  it('mentions added and removed text', () => {
    const summary = heuristicSummary(diffText('Intro\nBeta', 'Intro\nNew feature: exports\nAnother new thing'));
    expect(summary).toBe('Added 2 lines (e.g. "New feature: exports"); removed 1 line ("Beta").');
  });

  it('reports an edited line, a number change and a removal together', () => {
    const summary = heuristicSummary(
      diffText('Welcome to our shop\nOnly 5 left\nBeta', 'Welcome to our online shop\nOnly 3 left'),
    );
    expect(summary).toBe(
      'Number changed: 5 → 3 in "Only 3 left"; changed "Welcome to our shop" to "Welcome to our online shop"; ' +
        'removed 1 line ("Beta").',
    );
  });

  it('cuts long quoted lines with an ellipsis', () => {
    const summary = heuristicSummary(diffText('', `Start ${'word '.repeat(40)}`));
    expect(summary).toMatch(/^Added 1 line \("Start word word .{40,}…"\)\.$/u);
  });

  it('stays within the length limit on huge diffs', () => {
    const long = (prefix: string, i: number): string => `${prefix} ${i} ${'lorem ipsum dolor '.repeat(20)}`;
    const before = Array.from({ length: 2000 }, (_, i) => long('was', i)).join('\n');
    const after = Array.from({ length: 2000 }, (_, i) => long(`now ${i % 7 === 0 ? '$' : ''}`, i * 3)).join('\n');
    const summary = heuristicSummary(diffText(before, after));
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_LENGTH);
    // The lists were cut, so the counts are lower bounds.
    expect(summary).toMatch(/added \d+\+ lines/);
  });
});

describe('summarizeChange', () => {
  const answering = new StandInServer(
    json(
      200,
      JSON.stringify({ choices: [{ message: { role: 'assistant', content: '  The Pro plan now costs $39.  ' } }] }),
    ),
  );
  const failing = new StandInServer(json(500, '{"error":"boom"}'));
  const garbled = new StandInServer(json(200, '{"choices": [ not json'));
  const empty = new StandInServer(json(200, JSON.stringify({ choices: [{ message: { content: '   ' } }] })));
  const rambling = new StandInServer(
    json(200, JSON.stringify({ choices: [{ message: { content: 'x'.repeat(2000) } }] })),
  );
  const silent = new StandInServer(() => undefined);
  const servers = [answering, failing, garbled, empty, rambling, silent];

  beforeAll(async () => {
    await Promise.all(servers.map((server) => server.start()));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  const llm = (server: StandInServer, extra: Partial<LlmSummaryOptions> = {}): LlmSummaryOptions => ({
    url: server.url,
    apiKey: 'sk-test',
    model: 'summary-model',
    timeoutMs: 2000,
    ...extra,
  });

  it('returns null for an empty or whitespace-only diff without calling the endpoint', async () => {
    const before = answering.requests.length;
    await expect(summarizeChange(diffText('a', 'a'), { llm: llm(answering) })).resolves.toBeNull();
    await expect(summarizeChange(diffText('a  b', 'a b'), { llm: llm(answering) })).resolves.toBeNull();
    expect(answering.requests.length).toBe(before);
  });

  it('uses the heuristic summary when no endpoint is configured', async () => {
    await expect(summarizeChange(PRICE_CHANGE)).resolves.toEqual({
      text: heuristicSummary(PRICE_CHANGE),
      source: 'heuristic',
    });
  });

  it("asks the endpoint and returns its trimmed answer as 'llm'", async () => {
    const summary = await summarizeChange(PRICE_CHANGE, { llm: llm(answering) });
    expect(summary).toEqual({ text: 'The Pro plan now costs $39.', source: 'llm' });

    const request = answering.requests.at(-1);
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({
      model: 'summary-model',
      messages: [
        { role: 'system', content: expect.any(String) as string },
        { role: 'user', content: expect.stringContaining(PRICE_CHANGE.unified) as string },
      ],
    });
  });

  it('appends /chat/completions to a base URL and sends no Authorization without a key', async () => {
    const base = answering.url.replace('/chat/completions', '/');
    const summary = await summarizeChange(PRICE_CHANGE, { llm: llm(answering, { url: base, apiKey: undefined }) });
    expect(summary?.source).toBe('llm');
    expect(answering.requests.at(-1)).toMatchObject({ url: '/v1/chat/completions', authorization: undefined });
  });

  it('cuts a long prompt diff and a long answer', async () => {
    const after = Array.from({ length: 400 }, (_, i) => `A new line of text number ${i}`).join('\n');
    const diff = diffText('', after);
    const summary = await summarizeChange(diff, { llm: llm(rambling) });
    expect(summary?.source).toBe('llm');
    expect(summary?.text).toHaveLength(MAX_LLM_SUMMARY_LENGTH);

    const body = rambling.requests.at(-1)?.body as { messages: { content: string }[] };
    const prompt = body.messages[1].content;
    expect(prompt.length).toBeLessThan(8200);
    expect(prompt).toContain('(diff truncated)');
  });

  it.each([
    ['an HTTP error', failing, /HTTP 500/],
    ['malformed JSON', garbled, /JSON/],
    ['empty content', empty, /empty content/],
  ])('falls back to the heuristic summary on %s', async (_, server, reason) => {
    const errors: Error[] = [];
    const summary = await summarizeChange(PRICE_CHANGE, {
      llm: llm(server),
      onLlmError: (error) => errors.push(error),
    });
    expect(summary).toEqual({ text: heuristicSummary(PRICE_CHANGE), source: 'heuristic' });
    expect(server.requests.length).toBeGreaterThan(0);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(reason);
  });

  it('falls back to the heuristic summary when the endpoint never answers', async () => {
    const started = Date.now();
    const summary = await summarizeChange(PRICE_CHANGE, { llm: llm(silent, { timeoutMs: 300 }) });
    expect(summary).toEqual({ text: heuristicSummary(PRICE_CHANGE), source: 'heuristic' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(silent.requests).toHaveLength(1);
  });

  it('falls back when the endpoint cannot be reached or its URL is invalid', async () => {
    for (const url of ['http://127.0.0.1:1/v1', 'not a url']) {
      await expect(summarizeChange(PRICE_CHANGE, { llm: llm(answering, { url }) })).resolves.toMatchObject({
        source: 'heuristic',
      });
    }
  });
});

describe('chatCompletionsUrl', () => {
  it.each([
    ['http://127.0.0.1:9999/v1/chat/completions', 'http://127.0.0.1:9999/v1/chat/completions'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['http://localhost:11434', 'http://localhost:11434/chat/completions'],
    ['https://gw.example/openai/v1?api-version=2', 'https://gw.example/openai/v1/chat/completions?api-version=2'],
  ])('%s → %s', (url, expected) => {
    expect(chatCompletionsUrl(url)).toBe(expected);
  });
});

describe('valueChangeSummary', () => {
  it('reports a price drop with its percentage', () => {
    expect(
      valueChangeSummary({
        name: 'plan',
        kind: 'price',
        before: '$1,299.00',
        after: '$1,199.00',
        beforeAmount: 1299,
        afterAmount: 1199,
        currency: 'USD',
      }),
    ).toBe('Price "plan" changed from $1,299.00 to $1,199.00 (−7.7%).');
  });

  it('formats amounts that have no displayed text', () => {
    expect(
      valueChangeSummary({
        name: 'stock',
        kind: 'number',
        before: null,
        after: null,
        beforeAmount: 1000,
        afterAmount: 1500,
        currency: null,
      }),
    ).toBe('Number "stock" changed from 1,000 to 1,500 (+50%).');
  });

  it('quotes a changed text value', () => {
    expect(
      valueChangeSummary({
        name: 'headline',
        kind: 'text',
        before: 'Spring sale',
        after: 'Summer   sale',
        beforeAmount: null,
        afterAmount: null,
        currency: null,
      }),
    ).toBe('Value "headline" changed from "Spring sale" to "Summer sale".');
  });

  it('reports a value that disappeared or appeared', () => {
    const base = { name: 'plan', kind: 'price', beforeAmount: null, afterAmount: null, currency: 'EUR' } as const;
    expect(valueChangeSummary({ ...base, before: '€49', after: null, beforeAmount: 49 })).toBe(
      'Price "plan" disappeared (was €49).',
    );
    expect(valueChangeSummary({ ...base, before: null, after: null, afterAmount: 59 })).toBe(
      'Price "plan" appeared: €59.00.',
    );
  });

  it('stays within the length limit for long values', () => {
    const summary = valueChangeSummary({
      name: 'n'.repeat(500),
      kind: 'text',
      before: 'b'.repeat(5000),
      after: 'a'.repeat(5000),
      beforeAmount: null,
      afterAmount: null,
      currency: null,
    });
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_LENGTH);
    expect(summary).toMatch(/^Value "n+…" changed from "b+…" to "a+…"\.$/u);
  });
});
