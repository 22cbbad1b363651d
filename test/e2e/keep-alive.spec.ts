import type { Socket } from 'node:net';
import { Agent, fetch } from 'undici';
import { startTestApp, type TestApp } from '../support/test-app';

/*
 * A proxy or load balancer in front keeps its connections to the service open while idle, commonly for 60 s. A
 * service that closes an idle connection sooner (Node's default is 5 s) races the proxy's next request on it: a
 * socket reset, which the proxy answers with 502. With the defaults, the service keeps idle connections 75 s.
 */
describe('keep-alive behind a proxy (HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS)', () => {
  let service: TestApp;
  const connections: Socket[] = [];

  beforeAll(async () => {
    service = await startTestApp();
    service.app.getHttpServer().on('connection', (socket: Socket) => connections.push(socket));
  });
  afterAll(() => service?.close());

  it('answers a request on a connection that was idle for 65 s, on that same connection', async () => {
    // A client that, like a proxy, keeps its connection for longer than a minute.
    const proxyLike = new Agent({ connections: 1, keepAliveTimeout: 120_000, keepAliveMaxTimeout: 120_000 });
    try {
      const first = await fetch(`${service.baseUrl}/health`, { dispatcher: proxyLike });
      expect(first.status).toBe(200);
      expect(first.headers.get('keep-alive')).toBe('timeout=75');
      await first.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 65_000));
      const again = await fetch(`${service.baseUrl}/health`, { dispatcher: proxyLike });
      expect(again.status).toBe(200);
      await again.arrayBuffer();
      expect(connections).toHaveLength(1);
    } finally {
      await proxyLike.close();
    }
  }, 90_000);
});
