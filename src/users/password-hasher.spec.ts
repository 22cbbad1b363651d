import { loadConfig } from '../config/app-config';
import { PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  const owaspMinimum = new PasswordHasher(
    loadConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_ITERATIONS: '2', PASSWORD_HASH_PARALLELISM: '1' }),
  );
  const byDefault = new PasswordHasher(loadConfig({}));

  it('writes Argon2id hashes that record the configured cost', async () => {
    expect(await owaspMinimum.hash('correct horse')).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await byDefault.hash('correct horse')).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
  });

  it('verifies a password hashed at another cost, so changing the cost locks nobody out', async () => {
    const stored = await byDefault.hash('correct horse');
    expect(await owaspMinimum.verify(stored, 'correct horse')).toBe(true);
    expect(await owaspMinimum.verify(stored, 'wrong horse')).toBe(false);
  });
});
