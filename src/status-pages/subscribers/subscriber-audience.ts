import type { StatusPageComponent } from '../entities/status-page.entity';

/** What of a maintenance window decides who hears of it: the monitors it covers. */
export interface MaintenanceCoverage {
  allMonitors: boolean;
  monitorIds: readonly string[];
}

/** The page's components whose monitors the maintenance covers (all of them for a window over every monitor). */
export function coveredComponents(
  components: readonly StatusPageComponent[],
  coverage: MaintenanceCoverage,
): StatusPageComponent[] {
  return components.filter((component) =>
    component.monitor_ids.some((id) => coverage.allMonitors || coverage.monitorIds.includes(id)),
  );
}

/**
 * Whether a subscriber of the page hears of a maintenance: it covers one of the page's components, and one the
 * subscriber follows (every component, when it chose none). Incidents are the page's, and every subscriber hears them.
 */
export function hearsOfMaintenance(
  followed: readonly string[],
  components: readonly StatusPageComponent[],
  coverage: MaintenanceCoverage,
): boolean {
  return coveredComponents(components, coverage).some(
    (component) => followed.length === 0 || followed.includes(component.id),
  );
}
