/**
 * The `data` of a `change.detected` event as recordEvent writes it, for tests that put events in the outbox directly
 * (every recorded event must match its webhook in openapi.yaml: test/setup/file-database.ts).
 */
export const CHANGE_DETECTED_DATA = JSON.stringify({
  monitor: { id: '5b7f1e2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', name: 'Pricing', url: 'https://example.com/pricing' },
  change_id: 'c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f',
  kind: 'content',
  summary: 'A price moved.',
  detected_at: '2026-11-27T12:00:00.000Z',
});
