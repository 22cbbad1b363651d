import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { MOVING_PAGES, type MovingSite, REAL_CHANGES, startMovingSite } from '../support/moving-site';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';

type Dimension = (typeof REAL_CHANGES)[number]['dimensions'][number];

/** The dimensions in which a pair's comparison reports a stable difference. */
function differingDimensions(comparison: any): Dimension[] {
  const found: Dimension[] = [];
  if (comparison.text.changed) found.push('text');
  if (comparison.screenshot.changed) found.push('screenshot');
  if (comparison.findings.new.length + comparison.findings.fixed.length > 0) found.push('findings');
  if (comparison.robots.changed) found.push('robots');
  if (comparison.canonical.changed) found.push('canonical');
  return found;
}

/**
 * A release check of a site whose pages move on their own reports what a person would agree is a difference, and
 * nothing else: against a second deployment of the same code, no pair differs; against a preview with real changes,
 * each change is found in its own dimensions. What moves on the server (a timestamp, a request number) is reported
 * as unstable, apart from the differences.
 */
/** 26 pairs, and a second look at both sides of each pair that differs at first. */
const COLLECTION_TIMEOUT_MS = 360_000;

describe('release checks on pages that move on their own', () => {
  let service: TestApp;
  let production: MovingSite;
  let sameCode: MovingSite;
  let changed: MovingSite;
  let ci: IssuedKey;

  beforeAll(async () => {
    [production, sameCode, changed] = await Promise.all([
      startMovingSite(),
      startMovingSite(),
      startMovingSite({ version: 'changed' }),
    ]);
    service = await startTestApp();
    const person = await createAccount(new ApiClient(service.baseUrl));
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(service.baseUrl));
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
  });

  afterAll(async () => {
    await service?.close();
    await Promise.all([production, sameCode, changed].map((site) => site?.close()));
  });

  async function check(preview: MovingSite, label: string): Promise<any> {
    const created = await ci.client.post('/release-checks', {
      name: `moving site: ${label}`,
      production_url: production.url,
      preview_url: preview.url,
      request_key: `noise-${label}-${Date.now()}`,
      pages: MOVING_PAGES.map(({ path }) => ({ production_path: path, preview_path: path })),
      viewports: ['desktop', 'mobile'],
    });
    expect(created.status).toBe(201);
    const collected = await waitForCollection(ci.client, created.body.id, COLLECTION_TIMEOUT_MS);
    expect(collected).toMatchObject({ collection_status: 'completed', gate: 'pending' });
    return collected;
  }

  const pathOf = (check: any, artifact: any): string => check.pages[artifact.page_index].production_path;

  it(
    'reports no difference against a second deployment of the same code, and server-side motion as unstable',
    async () => {
      const collected = await check(sameCode, 'same code');
      for (const artifact of collected.artifacts) {
        expect({
          path: pathOf(collected, artifact),
          viewport: artifact.viewport,
          differs: artifact.comparison.has_differences,
          comparison: artifact.comparison.has_differences ? artifact.comparison : null,
        }).toEqual({
          path: pathOf(collected, artifact),
          viewport: artifact.viewport,
          differs: false,
          comparison: null,
        });
      }
      expect(collected.summary).toMatchObject({ pairs: MOVING_PAGES.length * 2, missing: 0, with_differences: 0 });
      // The server renders a timestamp and a request number into every answer: it moves on its own.
      const serverTime = collected.artifacts.filter((artifact: any) => pathOf(collected, artifact) === '/server-time');
      expect(serverTime).toHaveLength(2);
      for (const artifact of serverTime) {
        expect(artifact.comparison.unstable.lines.join('\n')).toMatch(/Rendered at/);
        expect(artifact.comparison.unstable.regions.length).toBeGreaterThan(0);
        expect(artifact.comparison.text).toMatchObject({ changed: false, added: [], removed: [] });
      }
      expect(collected.summary.unstable).toBe(2);
      // Pages held by the virtual clock needed no second look at all.
      for (const artifact of collected.artifacts) {
        if (pathOf(collected, artifact) !== '/server-time') expect(artifact.comparison.unstable).toBeNull();
      }
    },
    COLLECTION_TIMEOUT_MS,
  );

  it(
    'finds each real change of a preview in its own dimensions and nothing else',
    async () => {
      const collected = await check(changed, 'real changes');
      const expected = new Map(REAL_CHANGES.map((change) => [change.path, [...change.dimensions].sort()]));
      const found = collected.artifacts.map((artifact: any) => ({
        path: pathOf(collected, artifact),
        viewport: artifact.viewport,
        dimensions: differingDimensions(artifact.comparison).sort(),
      }));
      expect(found).toEqual(
        collected.artifacts.map((artifact: any) => ({
          path: pathOf(collected, artifact),
          viewport: artifact.viewport,
          dimensions: expected.get(pathOf(collected, artifact)) ?? [],
        })),
      );
      expect(collected.summary.with_differences).toBe(REAL_CHANGES.length * 2);
      // The noindex rides on the page whose server text moves: the robots change is stable, the timestamp is not.
      const serverTime = collected.artifacts.find((artifact: any) => pathOf(collected, artifact) === '/server-time');
      expect(serverTime.comparison.robots).toMatchObject({ preview: 'noindex', changed: true });
      expect(serverTime.comparison.unstable.lines.join('\n')).toMatch(/Rendered at/);
    },
    COLLECTION_TIMEOUT_MS,
  );
});
