import { describeMissing, maskDeep, masker, resolveReferences } from './env-references';

const SECRET = 'https://hooks.example.com/vigil/s3cr3t-token';

describe('${NAME} references in a declaration', () => {
  it('resolves references in every string value, nested in objects and arrays, and leaves keys and other values alone', () => {
    const document = {
      version: 1,
      alert_destinations: { ops: { config: { url: '${OPS_URL}' }, events: ['monitor.down'] } },
      monitors: {
        '${NOT_A_KEY}': {
          url: 'https://${HOST}/pricing?from=${HOST}',
          interval_seconds: 60,
          tracked_values: [{ name: 'pro', selector: '${SELECTOR}' }],
          paused: false,
          parent: null,
        },
      },
    };
    const resolved = resolveReferences(document, { OPS_URL: SECRET, HOST: 'shop.example.com', SELECTOR: '.pro' });
    expect(resolved).toMatchObject({ ok: true });
    if (!resolved.ok) return;
    expect(resolved.document).toEqual({
      version: 1,
      alert_destinations: { ops: { config: { url: SECRET }, events: ['monitor.down'] } },
      monitors: {
        '${NOT_A_KEY}': {
          url: 'https://shop.example.com/pricing?from=shop.example.com',
          interval_seconds: 60,
          tracked_values: [{ name: 'pro', selector: '.pro' }],
          paused: false,
          parent: null,
        },
      },
    });
    // The document given is not changed.
    expect(document.alert_destinations.ops.config.url).toBe('${OPS_URL}');
  });

  it('$${NAME} is a literal ${NAME}, and text that is not a reference stays as written', () => {
    const resolved = resolveReferences({ a: '$${HOME} costs $5 {not} ${lower-case}', b: '${9LIVES}' }, {});
    expect(resolved).toEqual({
      ok: true,
      document: { a: '${HOME} costs $5 {not} ${lower-case}', b: '${9LIVES}' },
      values: new Map(),
    });
  });

  it('a variable that is not set, or set to nothing, is refused, each with every path that refers to it', () => {
    const resolved = resolveReferences(
      {
        alert_destinations: { ops: { config: { url: '${OPS_URL}' } }, team: { config: { webhook_url: '${TEAM}' } } },
        monitors: { shop: { regions: ['${REGION}', '${OPS_URL}'] } },
      },
      { TEAM: '', REGION: 'eu' },
    );
    expect(resolved).toEqual({
      ok: false,
      missing: [
        { name: 'OPS_URL', path: 'alert_destinations.ops.config.url', empty: false },
        { name: 'TEAM', path: 'alert_destinations.team.config.webhook_url', empty: true },
        { name: 'OPS_URL', path: 'monitors.shop.regions[1]', empty: false },
      ],
    });
    if (resolved.ok) return;
    expect(describeMissing(resolved.missing).split('\n')).toEqual([
      'environment variable OPS_URL is not set (referred to at alert_destinations.ops.config.url, monitors.shop.regions[1])',
      'environment variable TEAM is empty (referred to at alert_destinations.team.config.webhook_url)',
    ]);
  });

  it('output is masked: every value taken from the environment shows as its reference, longest first', () => {
    const resolved = resolveReferences(
      { url: '${OPS_URL}', base: '${BASE}', short: '${ON}' },
      { OPS_URL: SECRET, BASE: 'https://hooks.example.com', ON: 'on' },
    );
    if (!resolved.ok) throw new Error('not resolved');
    const mask = masker(resolved.values);
    expect(mask(`config.url: "${SECRET}" → "${SECRET}/2"`)).toBe('config.url: "${OPS_URL}" → "${OPS_URL}/2"');
    expect(mask('https://hooks.example.com/other')).toBe('${BASE}/other');
    // Too short to be a secret, and masking it would garble every line.
    expect(mask('monitor')).toBe('monitor');
    expect(maskDeep({ errors: [{ field: 'x', message: `bad: ${SECRET}` }], n: 1 }, mask)).toEqual({
      errors: [{ field: 'x', message: 'bad: ${OPS_URL}' }],
      n: 1,
    });
  });
});
