import { type Agent, request } from 'undici';
import { assertPublicUrl } from '../../libs/net-guard';
import { readExcerpt, SEND_TIMEOUT_MS } from '../alerts/delivery-attempt';

const USER_AGENT = 'Vigil/1 (release checks)';

export interface HostCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface HostAnswer {
  status: number;
  /** The first 4 KiB of the answer. */
  excerpt: string | null;
}

/** A code host answered other than 2xx (or could not be reached: `status` null). */
export class HostCallFailed extends Error {
  override readonly name = 'HostCallFailed';

  constructor(
    readonly call: Pick<HostCall, 'method' | 'url'>,
    readonly status: number | null,
    readonly excerpt: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** Headers as logged: credentials replaced, so the delivery log never holds a token. */
export function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) =>
      ['authorization', 'private-token'].includes(name.toLowerCase()) ? [name, '[redacted]'] : [name, value],
    ),
  );
}

/**
 * Calls a code host's REST API through the deliveries' SSRF-checked dispatcher (a self-managed GitLab is an address
 * a person typed). Answers the status and the body: JSON parsed when asked for, else an excerpt.
 */
export class HostHttp {
  constructor(
    private readonly dispatcher: Agent,
    private readonly allowPrivate: boolean,
  ) {}

  async call(call: HostCall): Promise<HostAnswer> {
    const { answer } = await this.send(call, false);
    return answer;
  }

  async json<T>(call: HostCall): Promise<T> {
    const { parsed } = await this.send(call, true);
    return parsed as T;
  }

  private async send(call: HostCall, parse: boolean): Promise<{ answer: HostAnswer; parsed: unknown }> {
    const where = { method: call.method, url: call.url };
    let status: number;
    let text: string | null;
    try {
      await assertPublicUrl(call.url, { allowPrivate: this.allowPrivate });
      const response = await request(call.url, {
        method: call.method,
        headers: {
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        dispatcher: this.dispatcher,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      status = response.statusCode;
      text = parse && status >= 200 && status < 300 ? await response.body.text() : await readExcerpt(response.body);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new HostCallFailed(where, null, null, `${call.method} ${call.url} failed: ${reason}`);
    }
    if (status < 200 || status >= 300) {
      throw new HostCallFailed(where, status, text, `${call.method} ${call.url} answered ${status}`);
    }
    const excerpt = text === null ? null : text.slice(0, 4096);
    if (!parse) return { answer: { status, excerpt }, parsed: undefined };
    try {
      return { answer: { status, excerpt }, parsed: text ? JSON.parse(text) : null };
    } catch {
      throw new HostCallFailed(where, status, excerpt, `${call.method} ${call.url} answered ${status} with no JSON`);
    }
  }
}
