import { declarationSchema } from './declaration-schema';
import { documentPath } from './document-path';
import { declarationValidator } from './validate';

describe('validating a declaration offline against the JSON Schema made from openapi.yaml', () => {
  const validate = declarationValidator(declarationSchema());
  const errors = (document: unknown) =>
    validate(document).map((error) => `${documentPath(error.path)}: ${error.message}`);

  it('a document the service would take passes, ${ENV} references in secrets included', () => {
    expect(
      errors({
        version: 1,
        alert_destinations: {
          ops: { name: 'Ops', type: 'webhook', config: { url: '${OPS_URL}' } },
          team: { name: 'Team', type: 'slack', config: { webhook_url: '${TEAM_WEBHOOK_URL}' } },
        },
        monitors: {
          shop: {
            name: 'Shop',
            url: 'https://shop.example.com/',
            interval_seconds: 60,
            parent: null,
            rules: { down: { event: 'down', destinations: ['ops'] } },
          },
        },
        status_pages: { public: { slug: 'acme', title: 'Acme', components: [{ name: 'Shop', monitors: ['shop'] }] } },
      }),
    ).toEqual([]);
  });

  it('each error names its path in the document', () => {
    const found = errors({
      version: 2,
      monitors: {
        shop: {
          nmae: 'Shop',
          url: 'not a url',
          rules: { down: { event: 'sideways', destinations: [] } },
        },
      },
    });
    expect(found).toHaveLength(6);
    expect(found).toEqual(
      expect.arrayContaining([
        'version: must be <= 1',
        'monitors.shop.name: is required',
        'monitors.shop.nmae: is not a field of this format',
        'monitors.shop.url: must match format "uri"',
        'monitors.shop.rules.down.destinations: must NOT have fewer than 1 items',
        expect.stringMatching(/^monitors\.shop\.rules\.down\.event: must be one of "down", /),
      ]),
    );
  });

  it('a oneOf (a heartbeat schedule) reports the closest form’s errors, not every form’s', () => {
    expect(
      errors({
        version: 1,
        monitors: { beat: { name: 'Backup', mode: 'heartbeat', schedule: { interval_seconds: 3 } } },
      }),
    ).toEqual(['monitors.beat.schedule.interval_seconds: must be >= 10']);
  });

  it('not an object at all', () => {
    expect(errors([])).toEqual(['document: must be object']);
  });
});
