import { EVENT_TYPES } from '../../src/events/event.entity';
import { loadContract } from '../../src/openapi/contract';
import { ContractValidator } from '../support/contract-validator';

/*
 * Events are typed by openapi.yaml's `webhooks` (src/events/event-payloads.ts); every event an e2e or medium test
 * file records is validated against them when the file ends (test/setup/file-database.ts). This checks the two ends:
 * each event type has its webhook, and the validation refuses an event its receivers would not expect.
 */
describe('event payloads are described by the contract', () => {
  const contract = new ContractValidator();
  const monitorDown = {
    id: '8d4c8a8e-4b7e-4c8e-9a51-2f1f0c7c1a10',
    type: 'monitor.down',
    created_at: '2026-11-27T12:00:00.000Z',
    workspace_id: '0b0e1f5c-9f52-4d4e-8a3e-6c1d2f3a4b5c',
    data: {
      monitor: { id: '5b7f1e2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', name: 'Pricing', url: 'https://example.com/pricing' },
      rule_id: 'c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f',
      reason: 'down',
      region: 'eu-west',
      status_code: 503,
      response_time_ms: 120,
      message: 'HTTP 503',
      checked_at: '2026-11-27T11:59:58.000Z',
    },
  };

  it('has a webhook for every event type, and no other', () => {
    const webhooks = Object.keys(loadContract().document.webhooks as Record<string, unknown>);
    expect(webhooks.sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('accepts an event as its receivers expect it', () => {
    expect(() => contract.assertEvent(monitorDown)).not.toThrow();
  });

  it('refuses an event with a renamed field, a missing one, or another type’s data', () => {
    const { status_code: statusCode, ...withoutStatus } = monitorDown.data;
    expect(() => contract.assertEvent({ ...monitorDown, data: { ...withoutStatus, status: statusCode } })).toThrow(
      /status_code/,
    );
    expect(() => contract.assertEvent({ ...monitorDown, data: { ...monitorDown.data, monitor: undefined } })).toThrow(
      /monitor/,
    );
    expect(() => contract.assertEvent({ ...monitorDown, type: 'crawl.completed' })).toThrow(/crawl_id/);
    expect(() => contract.assertEvent({ ...monitorDown, type: 'monitor.exploded' })).toThrow(/no webhook/);
  });
});
