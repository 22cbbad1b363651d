import { api, ok } from '../api';
import type { Monitor } from '../types';
import { type Resource, useResource } from './useResource';

/** Every monitor of the workspace, read 500 at a time (status page components and reports choose among them). */
async function allMonitors(signal: AbortSignal): Promise<Monitor[]> {
  const monitors: Monitor[] = [];
  for (let page = 1; ; page += 1) {
    const chunk = await ok(api.GET('/monitors', { params: { query: { page, per_page: 500 } }, signal }));
    monitors.push(...chunk.data);
    if (page >= chunk.pagination.total_pages) return monitors;
  }
}

/** Loads every monitor of the workspace once; nothing while `wanted` is false (a viewer has no form to fill). */
export function useAllMonitors(wanted = true): Resource<Monitor[]> {
  return useResource(wanted ? [] : null, allMonitors);
}
