import type { AppConfig } from './app-config';

/** Roles `api` and `all` serve HTTP. */
export function servesHttp(config: AppConfig): boolean {
  return config.role === 'api' || config.role === 'all';
}

/** Roles `worker` and `all` run queue processors. */
export function runsWorkers(config: AppConfig): boolean {
  return config.role === 'worker' || config.role === 'all';
}

/** Roles `scheduler` and `all` enqueue due monitor checks. */
export function runsScheduler(config: AppConfig): boolean {
  return config.role === 'scheduler' || config.role === 'all';
}
