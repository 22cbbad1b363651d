import { api, ok } from '../api';
import type { AlertDestination } from '../types';
import { type Resource, useResource } from './useResource';

/** Every destination of the workspace, read 100 at a time (rules and the delivery log name them). */
async function allDestinations(signal: AbortSignal): Promise<AlertDestination[]> {
  const destinations: AlertDestination[] = [];
  for (let page = 1; ; page += 1) {
    const chunk = await ok(api.GET('/alert-destinations', { params: { query: { page, per_page: 100 } }, signal }));
    destinations.push(...chunk.data);
    if (page >= chunk.pagination.total_pages) return destinations;
  }
}

/** Loads every alert destination of the workspace once. */
export function useAllDestinations(): Resource<AlertDestination[]> {
  return useResource([], allDestinations);
}
