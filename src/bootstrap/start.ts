import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import { servesHttp } from '../config/roles';
import { ConfigError, loadConfig } from '../config/app-config';
import { createHttpApp } from '../http/http-app';
import { UsersService } from '../users/users.service';
import { preflight, StartupError } from './preflight';

function fail(message: string): never {
  console.error(`vigil: ${message}`);
  process.exit(1);
}

export async function start(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
    throw error;
  }
  try {
    await preflight(config);
  } catch (error) {
    if (error instanceof StartupError) fail(error.message);
    throw error;
  }

  if (!servesHttp(config)) {
    const context = await NestFactory.createApplicationContext(AppModule.forRoot(config), { bufferLogs: true });
    context.useLogger(context.get(Logger));
    context.enableShutdownHooks();
    context.get(Logger).log(`vigil ${config.role} started (regions: ${config.workerRegions.join(', ')})`);
    return;
  }

  const app = await createHttpApp(config);
  try {
    await app.listen(config.port);
  } catch (error) {
    const code = (error as { code?: string }).code;
    fail(`cannot listen on port ${config.port} (${code ?? String(error)}): free the port or set PORT`);
  }
  const url = `http://localhost:${config.port}`;
  // Whom to sign in as, when this start knows: the configured administrator, or the one it just created.
  const admin = config.adminEmail ?? app.get(UsersService).generatedAdministrator;
  const signIn = admin ? `sign in at ${url}/ as ${admin}` : `sign in at ${url}/`;
  app.get(Logger).log(`vigil ${config.role} listening on ${url} (API ${url}/api/v1, docs ${url}/docs); ${signIn}`);
}
