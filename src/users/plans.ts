export interface PlanLimits {
  monitors: number;
  checks_per_month: number;
  release_checks_per_month: number;
}

/** What each plan allows unless the `PLANS` setting says otherwise. `requests_per_minute` is the rate-limit setting. */
export const DEFAULT_PLANS: Record<string, PlanLimits> = {
  free: { monitors: 50, checks_per_month: 500_000, release_checks_per_month: 500 },
  team: { monitors: 1_000, checks_per_month: 10_000_000, release_checks_per_month: 10_000 },
};

/** The limits of `plan` among the configured plans; an unknown plan has the free plan's. */
export function planLimits(plans: Record<string, PlanLimits>, plan: string): PlanLimits {
  return plans[plan] ?? plans.free ?? DEFAULT_PLANS.free;
}
