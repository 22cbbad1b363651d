import { generateSecret, hashSecret, looksLikeSecret } from '../../src/api-keys/api-key-secret';

describe('API key secrets', () => {
  it('are vgl_ and 43 base-62 characters, all different, stored only as a hash and an 8-character prefix', () => {
    const secrets = Array.from({ length: 200 }, generateSecret);
    for (const { secret, prefix, hash } of secrets) {
      expect(secret).toMatch(/^vgl_[0-9A-Za-z]{43}$/);
      expect(looksLikeSecret(secret)).toBe(true);
      expect(prefix).toBe(secret.slice(4, 12));
      expect(hash).toBe(hashSecret(secret));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(secrets.map((item) => item.secret)).size).toBe(secrets.length);
  });

  it('rejects anything else before any lookup', () => {
    for (const candidate of [
      '',
      'vgl_',
      `vgl_${'a'.repeat(42)}`,
      `vgl_${'a'.repeat(44)}`,
      `key_${'a'.repeat(43)}`,
      "vgl_' or 1=1",
    ]) {
      expect(looksLikeSecret(candidate)).toBe(false);
    }
  });
});
