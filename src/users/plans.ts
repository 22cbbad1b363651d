export interface PlanLimits {
  monitors: number;
  checks_per_month: number;
  release_checks_per_month: number;
}

/** What each plan allows. `requests_per_minute` comes from the service's rate-limit setting. */
export const PLANS: Record<string, PlanLimits> = {
  free: { monitors: 50, checks_per_month: 500_000, release_checks_per_month: 500 },
  team: { monitors: 1_000, checks_per_month: 10_000_000, release_checks_per_month: 10_000 },
};

export function planLimits(plan: string): PlanLimits {
  return PLANS[plan] ?? PLANS.free;
}
