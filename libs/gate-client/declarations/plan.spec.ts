import { DECLARATION_EXIT, type DeclarationPlan, parsePlan, planExitCode, renderApplied, renderPlan } from './plan';

const SHOP_ID = '25bc52c6-f1fb-58fc-bd2c-55c7fb97eb33';
const OLD_ID = '0b0c6a36-8f5e-4c1e-9f55-0d6b1f0d2a11';

const plan: DeclarationPlan = {
  fingerprint: 'f1',
  changes: [
    {
      action: 'create',
      kind: 'alert_destination',
      key: 'ops',
      id: null,
      fields: [
        { field: 'name', before: null, after: 'Ops', secret: false },
        { field: 'config.url', before: null, after: null, secret: true },
        { field: 'events', before: null, after: ['monitor.down'], secret: false },
      ],
    },
    {
      action: 'update',
      kind: 'monitor',
      key: 'shop',
      id: SHOP_ID,
      fields: [
        { field: 'name', before: 'a', after: 'b', secret: false },
        { field: 'interval_seconds', before: 300, after: 60, secret: false },
        { field: 'expected_status.max', before: 399, after: null, secret: false },
      ],
    },
    {
      action: 'update',
      kind: 'alert_destination',
      key: 'team',
      id: SHOP_ID,
      // A service that sent a secret's values anyway: they are still not printed.
      fields: [
        { field: 'config.webhook_url', before: 'https://old.example/x', after: 'https://new.example/y', secret: true },
      ],
    },
    { action: 'delete', kind: 'monitor', key: 'old', id: OLD_ID, fields: [] },
  ],
};

describe('a plan as a person reviews it', () => {
  it('reads like terraform: + create, ~ update with before → after per field, - delete, then the counts', () => {
    expect(renderPlan(plan)).toEqual([
      '+ create alert_destination ops',
      '    name: "Ops"',
      '    config.url: (secret)',
      '    events: ["monitor.down"]',
      '~ update monitor shop',
      '    name: "a" → "b"',
      '    interval_seconds: 300 → 60',
      '    expected_status.max: 399 → null',
      '~ update alert_destination team',
      '    config.webhook_url: (secret changed)',
      '- delete monitor old',
      '',
      'Plan: 1 to create, 2 to change, 1 to delete.',
    ]);
  });

  it('never prints a secret: a value from the environment in any other field shows as its reference', () => {
    const secret = 'https://new.example/y';
    const withSecretElsewhere: DeclarationPlan = {
      fingerprint: 'f',
      changes: [
        {
          action: 'update',
          kind: 'monitor',
          key: 'hook',
          id: SHOP_ID,
          fields: [{ field: 'url', before: null, after: `${secret}?x=1`, secret: false }],
        },
      ],
    };
    const text = [
      ...renderPlan(plan),
      ...renderPlan(withSecretElsewhere, (line) => line.split(secret).join('${HOOK}')),
    ].join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('https://old.example/x');
    expect(text).toContain('    url: null → "${HOOK}?x=1"');
  });

  it('server text cannot break a line or inject terminal escapes; a long value is cut', () => {
    const lines = renderPlan({
      fingerprint: 'f',
      changes: [
        {
          action: 'create',
          kind: 'monitor',
          key: 'evil\n+ create monitor fake',
          id: null,
          fields: [{ field: 'keyword', before: null, after: `\u001b[31m${'x'.repeat(500)}`, secret: false }],
        },
      ],
    });
    expect(lines[0]).toBe('+ create monitor evil + create monitor fake');
    expect(lines[1]).toMatch(/^ {4}keyword: "\\u001b\[31mx+…$/);
    expect(lines[1].length).toBeLessThan(230);
  });

  it('no changes is said in one line', () => {
    expect(renderPlan({ fingerprint: 'f', changes: [] })).toEqual(['No changes: the workspace matches the document.']);
  });

  it('exit codes as terraform plan -detailed-exitcode: 0 no changes, 2 changes', () => {
    expect(planExitCode({ fingerprint: 'f', changes: [] })).toBe(0);
    expect(planExitCode(plan)).toBe(2);
    expect(DECLARATION_EXIT).toEqual({ ok: 0, error: 1, changes: 2, usage: 4 });
  });

  it('what an apply did, with the ids', () => {
    expect(renderApplied({ ...plan, changes: [{ ...plan.changes[0], id: OLD_ID }, plan.changes[3]] })).toEqual([
      `+ created alert_destination ops (${OLD_ID})`,
      `- deleted monitor old (${OLD_ID})`,
      '',
      'Applied: 1 created, 0 changed, 1 deleted.',
    ]);
  });

  it('a malformed answer is refused rather than read as "no changes"', () => {
    expect(parsePlan(plan)).toEqual({ ok: true, plan });
    expect(parsePlan({ changes: [] })).toEqual({ ok: false, reason: '`fingerprint` is missing' });
    expect(parsePlan({ fingerprint: 'f' })).toEqual({ ok: false, reason: '`changes` is not an array' });
    expect(
      parsePlan({
        fingerprint: 'f',
        changes: [{ action: 'replace', kind: 'monitor', key: 'a', id: null, fields: [] }],
      }),
    ).toEqual({
      ok: false,
      reason: 'changes[0] is not a change',
    });
    expect(parsePlan('{}')).toEqual({ ok: false, reason: 'not a JSON object' });
  });
});
