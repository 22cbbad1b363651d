import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCertificate } from './test-certificates';

export interface SitePage {
  status?: number;
  html: string;
  /** Redirect target (sets Location and a 302). */
  location?: string;
  /** Defaults to `text/html; charset=utf-8`. */
  contentType?: string;
  /** More response headers. */
  headers?: Record<string, string>;
}

/**
 * A small website on 127.0.0.1 whose pages the test sets, e.g. `/prod/about` and `/preview/about`; over HTTPS when
 * started with a certificate, which `serveCertificate` replaces for new connections.
 */
export class TestSite {
  readonly pages = new Map<string, SitePage>();
  private server?: Server | HttpsServer;
  origin = '';

  async start(options: { certificate?: TestCertificate } = {}): Promise<this> {
    const handler = (request: IncomingMessage, response: ServerResponse) => this.handle(request, response);
    this.server = options.certificate ? createHttpsServer(options.certificate, handler) : createServer(handler);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const scheme = options.certificate ? 'https' : 'http';
    this.origin = `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Serves `certificate` to connections made from now on (an HTTPS site only). */
  serveCertificate(certificate: TestCertificate): void {
    (this.server as HttpsServer).setSecureContext(certificate);
  }

  set(path: string, page: SitePage | string): void {
    this.pages.set(path, typeof page === 'string' ? { html: page } : page);
  }

  /** Answers a request with the page set at its path (a subclass may hold it first). */
  protected handle(request: IncomingMessage, response: ServerResponse): void {
    const page = this.pages.get(pathOf(request));
    if (!page) {
      response
        .writeHead(404, { 'Content-Type': 'text/html' })
        .end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    if (page.location) {
      response.writeHead(page.status ?? 302, { Location: page.location }).end();
      return;
    }
    response
      .writeHead(page.status ?? 200, {
        'Content-Type': page.contentType ?? 'text/html; charset=utf-8',
        ...page.headers,
      })
      .end(page.html);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** A request's path, without its query. */
export const pathOf = (request: IncomingMessage): string => (request.url ?? '/').split('?')[0];

/** An accessible, stable page: the baseline most tests start from. */
export function page(options: { title?: string; body?: string; robots?: string; canonical?: string } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${options.title ?? 'Pricing'}</title>
${options.robots ? `<meta name="robots" content="${options.robots}">` : ''}
${options.canonical ? `<link rel="canonical" href="${options.canonical}">` : ''}
<style>body { font-family: sans-serif; margin: 2rem; } main { max-width: 40rem; }</style>
</head>
<body>
<main id="content">
${options.body ?? '<h1>Pricing</h1>\n<p>Team plan: 49 per month.</p>\n<p>Business plan: 199 per month.</p>'}
</main>
</body>
</html>`;
}
