import { isRecord } from '../check';
import { maskDeep } from './env-references';
import { type DeclarationPlan, parsePlan } from './plan';

/** A plan saved by `vigil plan --out`, for `vigil apply --plan`: the fingerprint applies it as reviewed. */
export interface SavedPlan {
  format: 'vigil-declaration-plan';
  prune: boolean;
  plan: DeclarationPlan;
}

/** The file `--out` writes: values from the environment masked, like everything the CLI writes. */
export function savedPlanText(plan: DeclarationPlan, prune: boolean, mask: (text: string) => string): string {
  const saved: SavedPlan = { format: 'vigil-declaration-plan', prune, plan: maskDeep(plan, mask) as DeclarationPlan };
  return `${JSON.stringify(saved, null, 2)}\n`;
}

export function parseSavedPlan(
  text: string,
  file: string,
): { ok: true; saved: SavedPlan } | { ok: false; message: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, message: `${file} is not JSON` };
  }
  if (!isRecord(body) || body.format !== 'vigil-declaration-plan' || typeof body.prune !== 'boolean') {
    return { ok: false, message: `${file} is not a plan saved by \`vigil plan --out\`` };
  }
  const plan = parsePlan(body.plan);
  if (!plan.ok) return { ok: false, message: `${file}: the plan in it is malformed: ${plan.reason}` };
  return { ok: true, saved: { format: body.format, prune: body.prune, plan: plan.plan } };
}
