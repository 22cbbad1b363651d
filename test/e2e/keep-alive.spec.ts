import { connect } from 'node:net';
import { startTestApp } from '../support/test-app';

/*
 * A proxy or load balancer in front keeps its connections to the service open while idle, commonly for 60 s. A
 * service that closes an idle connection sooner (Node's default is 5 s) races the proxy's next request on it: a
 * socket reset, which the proxy answers with 502. With the defaults, the service keeps idle connections 75 s.
 *
 * The default is read off the running server; the waiting is done on a service configured for 8 s, so the test
 * shows in seconds what the default does in a minute: a connection idle beyond Node's 5 s is kept, and the service
 * closes it once idle for the setting.
 */
describe('keep-alive behind a proxy (HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS)', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** A whole HTTP/1.1 response with a Content-Length body. */
  function isWholeResponse(text: string): boolean {
    const end = text.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(text);
    return end >= 0 && length !== null && Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(length[1]);
  }

  it('by default keeps an idle connection 75 s, and waits 76 s for request headers', async () => {
    // The API role: the process that serves HTTP.
    const service = await startTestApp({ ROLE: 'api' });
    try {
      const server = service.app.getHttpServer();
      expect({ keepAlive: server.keepAliveTimeout, headers: server.headersTimeout }).toEqual({
        keepAlive: 75_000,
        headers: 76_000,
      });
      const response = await fetch(`${service.baseUrl}/health`);
      await response.arrayBuffer();
      expect(response.headers.get('keep-alive')).toBe('timeout=75');
    } finally {
      await service.close();
    }
  });

  it('answers on a connection idle longer than Node’s 5 s, on that same connection, and closes it at the setting', async () => {
    const service = await startTestApp({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '10000' });
    // A bare socket, as a proxy holds one: no client-side timer closes it, so only the service can.
    const { hostname, port } = new URL(service.baseUrl);
    const socket = connect(Number(port), hostname);
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const get = async (): Promise<string> => {
      received = '';
      socket.write(`GET /health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
      for (let waited = 0; !isWholeResponse(received) && waited < 5_000; waited += 10) await sleep(10);
      return received;
    };
    try {
      expect(await get()).toMatch(/^HTTP\/1\.1 200[^]*\r\nKeep-Alive: timeout=10\r\n/i);
      // Idle past Node's 5 s and 3.5 s short of the setting: room for a stalled event loop on a loaded machine.
      await sleep(6_500);
      expect(await get()).toMatch(/^HTTP\/1\.1 200/);
      const answered = Date.now();
      const idleFor = (await closed) - answered;
      expect(idleFor).toBeGreaterThanOrEqual(9_500);
      expect(idleFor).toBeLessThan(14_000);
    } finally {
      socket.destroy();
      await service.close();
    }
  }, 90_000);
});
