import { createHash } from 'node:crypto';
import type { Page, Response } from 'playwright-core';
import { discardBody, fetchGuarded, type HostLookup } from '../net-guard';

/** A response the page's content came from, by its bytes. */
export interface ResponseDigest {
  url: string;
  /** SHA-256 of the body, hex. */
  digest: string;
}

/** More than this and the ledger gives up: a page that fetches that much is looked at again in the browser. */
const MAX_RESPONSES = 40;

const CONTENT_TYPES = new Set(['document', 'xhr', 'fetch']);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The main document and every fetch/XHR a capture's page read with GET, by their bytes. With the page's clock and
 * randomness held (determinism.ts), these are what can still make two captures differ: when the server answers
 * each of them again with the same bytes, a second capture would render the same page, so the second look can be
 * had for a few requests instead of a browser capture (decision 0012).
 */
export class ResponseLedger {
  private readonly digests: Array<Promise<ResponseDigest | null>> = [];
  private complete = true;

  constructor(private readonly page: Page) {
    page.on('response', (response) => this.record(response));
  }

  /** The digests, in order; null when one could not be read or there were too many. */
  async read(): Promise<ResponseDigest[] | null> {
    const read = await Promise.all(this.digests);
    if (!this.complete || read.some((digest) => digest === null)) return null;
    return read as ResponseDigest[];
  }

  private record(response: Response): void {
    const request = response.request();
    if (request.method() !== 'GET' || !CONTENT_TYPES.has(request.resourceType())) return;
    if (request.resourceType() === 'document' && request.frame() !== this.page.mainFrame()) return;
    const status = response.status();
    if (status >= 300 && status < 400) return; // the redirect's target is recorded as its own response
    if (this.digests.length >= MAX_RESPONSES) {
      this.complete = false;
      return;
    }
    this.digests.push(
      response.body().then(
        (body) => ({ url: response.url(), digest: sha256(body) }),
        () => null,
      ),
    );
  }
}

export interface AnswerCheckOptions {
  userAgent: string;
  allowPrivate: boolean;
  lookup?: HostLookup;
  isAllowedAddress?: (ip: string) => boolean;
  timeoutMs: number;
}

/**
 * Whether the server answers every recorded request again with the same bytes (the SSRF guard checks each URL and
 * redirect). Any difference, failure or timeout answers false: then only a capture can tell what moved.
 */
export async function sameAnswersAgain(responses: ResponseDigest[], options: AnswerCheckOptions): Promise<boolean> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const answers = await Promise.all(
      responses.map(async ({ url, digest }) => {
        const { response } = await fetchGuarded(url, {
          guard: {
            allowPrivate: options.allowPrivate,
            ...(options.lookup ? { lookup: options.lookup } : {}),
            ...(options.isAllowedAddress ? { isAllowedAddress: options.isAllowedAddress } : {}),
          },
          signal,
          headers: { 'user-agent': options.userAgent },
          maxRedirects: 5,
        });
        if (response.status < 200 || response.status > 299) {
          await discardBody(response);
          return false;
        }
        return sha256(Buffer.from(await response.arrayBuffer())) === digest;
      }),
    );
    return answers.every(Boolean);
  } catch {
    return false;
  }
}
