import type { ApiClient } from './api-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a release check, as the CI gate client does, until its collection has finished; returns the check. */
export async function waitForCollection(client: ApiClient, id: string, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const check = (await client.get(`/release-checks/${id}`)).body;
    if (check.collection_status === 'completed' || check.collection_status === 'incomplete') return check;
    if (Date.now() > deadline) throw new Error(`collection of ${id} did not finish: ${JSON.stringify(check.summary)}`);
    await sleep(250);
  }
}
