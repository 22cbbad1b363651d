export * from './guard';
export { discardBody, fetchGuarded, RedirectError, refusalOf, untilAborted } from './guarded-fetch';
export type { GuardedFetchOptions, GuardedResponse, Response } from './guarded-fetch';
