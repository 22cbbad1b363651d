import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names shared by global setup and teardown through the environment the test workers inherit. */
export const TEST_ADMIN = { email: 'admin@example.com', password: 'correct horse battery staple' };

const RUN_PREFIX = 'vigil_test_';

/** Whether `name` is a test run's name (its database, Redis prefix and folder): the teardown removes nothing else. */
export const isRunName = (name: string | undefined): name is string => name?.startsWith(RUN_PREFIX) ?? false;

export function newRunEnvironment(): Record<string, string> {
  const run = `${RUN_PREFIX}${randomBytes(5).toString('hex')}`;
  const database = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  database.pathname = `/${run}`;
  return {
    DATABASE_URL: database.toString(),
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: run,
    // The run's temporary files, its browsers' profiles among them: a browser that is not closed (its process or its
    // service killed by a test) leaves its profile behind, about ten a run; the teardown removes the folder.
    TMPDIR: join(tmpdir(), run),
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    ALLOW_PRIVATE_TARGETS: 'true',
    MIGRATE_ON_START: 'false',
    // Every test signs in from 127.0.0.1; the sign-in limit has a test of its own.
    SIGN_IN_RATE_LIMIT_PER_MINUTE: '100000',
    // Passwords hashed at OWASP's minimum Argon2id cost (19 MiB, 2 iterations, 1 lane), not the production default:
    // the suite signs in a few hundred times, and the hash's cost is a setting, not a behaviour under test.
    PASSWORD_HASH_MEMORY_KIB: '19456',
    PASSWORD_HASH_ITERATIONS: '2',
    PASSWORD_HASH_PARALLELISM: '1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  };
}
