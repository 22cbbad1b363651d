// `npm run cli -- <command>`: operator commands that need no web session.
import 'reflect-metadata';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeysService } from './api-keys/api-keys.service';
import { ConfigError, loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './db/database.module';
import { DomainError } from './common/errors/domain-errors';

const USAGE = `usage: npm run cli -- keys:rate-limit <key-id> <requests-per-minute>

  keys:rate-limit   set an API key's rate-limit ceiling; applies from the key's next request`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function usageError(message: string): never {
  console.error(`vigil: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function setRateLimit(keyId: string, requestsPerMinute: number): Promise<void> {
  const config = loadConfig();
  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(config)], providers: [ApiKeysService] })
  class CliModule {}
  const context = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const key = await RequestContext.create(context.get(MikroORM).em, () =>
      context.get(ApiKeysService).setRateLimit(keyId, requestsPerMinute),
    );
    console.log(`key ${key.id} (${key.name}, ${key.user_email}): ${key.rate_limit_per_minute} requests per minute`);
  } finally {
    await context.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case 'keys:rate-limit': {
      const [keyId, limit] = args;
      if (args.length !== 2) usageError('keys:rate-limit takes a key id and a number');
      if (!UUID.test(keyId)) usageError(`${keyId} is not a key id (a UUID)`);
      const requestsPerMinute = Number(limit);
      if (!Number.isInteger(requestsPerMinute) || requestsPerMinute < 1 || requestsPerMinute > 1_000_000) {
        usageError(`${limit} is not a whole number from 1 to 1000000`);
      }
      return setRateLimit(keyId, requestsPerMinute);
    }
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return;
    default:
      usageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`vigil: configuration error: ${error.message}`);
  else if (error instanceof DomainError) console.error(`vigil: ${error.message}`);
  else console.error(`vigil: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
