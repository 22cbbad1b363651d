import { Redis } from 'ioredis';
import { dropDatabase } from '../../src/db/database';

export default async function globalTeardown(): Promise<void> {
  const { DATABASE_URL, REDIS_URL, REDIS_PREFIX } = process.env;
  if (DATABASE_URL) await dropDatabase(DATABASE_URL);
  if (REDIS_URL && REDIS_PREFIX?.startsWith('vigil_test_')) {
    const redis = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  }
}
