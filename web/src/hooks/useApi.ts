import type { ClientPathsWithMethod, MaybeOptionalInit, MethodResponse } from 'openapi-fetch';
import type { paths } from '../../../libs/api-client/schema';
import { api, ok } from '../api';
import { type Resource, useResource } from './useResource';

/** A path the API answers GET on, as openapi.yaml spells it: `/monitors/{id}`. */
export type GetPath = ClientPathsWithMethod<typeof api, 'get'>;
/** What a GET of `P` takes: its path and query parameters. */
export type GetInit<P extends GetPath> = MaybeOptionalInit<paths[P], 'get'>;
/** What a successful GET of `P` answers. */
export type GetData<P extends GetPath> = MethodResponse<typeof api, 'get', P>;

// The typed `api.GET`, seen without its generics: `useApi`'s own signature keeps the types its callers see.
const get = api.GET as (path: string, init: object) => Promise<{ data?: unknown; response: Response }>;

/**
 * Loads one GET of the API, typed from openapi.yaml: `useApi('/monitors/{id}', { params: { path: { id } } })`. It
 * loads again when the path or its parameters change (the call is its own key), or when `reloadOn` does (a monitor's
 * last check, say, for what the check adds to). A `null` init loads nothing yet (an id still to come).
 */
export function useApi<P extends GetPath>(
  path: P,
  init: GetInit<P> | null,
  options: { reloadOn?: unknown } = {},
): Resource<GetData<P>> {
  const inputs = init === null ? null : [path, init?.params ?? null, options.reloadOn ?? null];
  return useResource(inputs, (signal) => ok(get(path, { ...init, signal })) as Promise<GetData<P>>);
}
