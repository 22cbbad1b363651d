export interface PlanLimits {
  monitors: number;
  checks_per_month: number;
  release_checks_per_month: number;
  alert_destinations: number;
  status_pages: number;
  /** Saved report definitions; their runs are not counted. */
  reports: number;
}

/** Limits `PLANS` must name for each plan; the others default to the same plan's (or the free plan's) defaults. */
export const REQUIRED_PLAN_LIMITS = ['monitors', 'checks_per_month', 'release_checks_per_month'] as const;
export const OPTIONAL_PLAN_LIMITS = ['alert_destinations', 'status_pages', 'reports'] as const;

/** What each plan allows unless the `PLANS` setting says otherwise. `requests_per_minute` is the rate-limit setting. */
export const DEFAULT_PLANS: Record<string, PlanLimits> = {
  free: {
    monitors: 50,
    checks_per_month: 500_000,
    release_checks_per_month: 500,
    alert_destinations: 20,
    status_pages: 3,
    reports: 20,
  },
  team: {
    monitors: 1_000,
    checks_per_month: 10_000_000,
    release_checks_per_month: 10_000,
    alert_destinations: 200,
    status_pages: 50,
    reports: 500,
  },
};

/** The limits of `plan` among the configured plans; an unknown plan has the free plan's. */
export function planLimits(plans: Record<string, PlanLimits>, plan: string): PlanLimits {
  return plans[plan] ?? plans.free ?? DEFAULT_PLANS.free;
}
