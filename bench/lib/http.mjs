// Local HTTP servers the benches run in their own process (pages to capture, monitor targets, sites to crawl,
// webhook receivers): listening on 127.0.0.1 at a free port, and closed at the end with their open connections.

import { HOST } from './common.mjs';

/** Starts `server` listening on 127.0.0.1 at a free port; resolves with its origin, e.g. http://127.0.0.1:41234. */
export async function listenLocal(server) {
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  return `http://${HOST}:${server.address().port}`;
}

/** Closes `server` (if any) and the keep-alive connections it still has open; resolves once it is closed. */
export async function closeServer(server) {
  if (!server?.listening) return;
  server.closeAllConnections();
  await new Promise((resolveClose) => server.close(resolveClose));
}
