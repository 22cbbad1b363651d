import { type CommandContext, PREFIX, readText } from './context';
import { DECLARATION_EXIT, type DeclarationPlan, renderApplied, renderPlan } from './plan';
import { prepareDocument, reportFailure } from './prepared-document';
import { parseSavedPlan } from './saved-plan';
import { startServiceCommand } from './service-command';
import { APPLY_USAGE } from './usage';

export const CONFIRM_QUESTION = 'Apply these changes? [y/N] ';

/**
 * `vigil apply FILE`: plans (or takes a saved plan), shows the diff, asks, then applies exactly that plan: the
 * service refuses it with `409 plan_stale` when the workspace or the document moved since.
 */
export async function applyCommand(argv: string[], context: CommandContext): Promise<number> {
  const { io } = context;
  const start = startServiceCommand(argv, context, {
    options: { prune: { type: 'boolean' }, yes: { type: 'boolean' }, plan: { type: 'string' } },
    file: 'FILE',
    usage: APPLY_USAGE,
  });
  if (!start.ok) return start.code;
  const { api, values } = start;
  const planFile = typeof values.plan === 'string' ? values.plan : undefined;
  if (planFile && values.prune === true) {
    io.stderr(`${PREFIX}: --prune comes from the saved plan with --plan\n${APPLY_USAGE}`);
    return DECLARATION_EXIT.usage;
  }
  const prepared = prepareDocument(start.file!, context);
  if (!prepared.ok) return prepared.code;
  const { document, mask } = prepared.prepared;

  let plan: DeclarationPlan;
  let prune = values.prune === true;
  if (planFile) {
    let text: string;
    try {
      text = readText(context, planFile);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      io.stderr(`${PREFIX}: cannot read ${planFile}${code ? ` (${code})` : ''}`);
      return DECLARATION_EXIT.usage;
    }
    const saved = parseSavedPlan(text, planFile);
    if (!saved.ok) {
      io.stderr(`${PREFIX}: ${saved.message}`);
      return DECLARATION_EXIT.usage;
    }
    ({ plan, prune } = saved.saved);
  } else {
    const planned = await api.plan(document, prune);
    if (!planned.ok) {
      reportFailure(context, planned, prepared.prepared);
      return DECLARATION_EXIT.error;
    }
    plan = planned.value;
  }

  for (const line of renderPlan(plan, mask)) io.stdout(line);
  if (!plan.changes.length) return DECLARATION_EXIT.ok;

  if (values.yes !== true) {
    if (!context.confirm) {
      io.stderr(
        `${PREFIX}: not applied: there is no terminal to confirm on; review the plan above and pass --yes to apply it`,
      );
      return DECLARATION_EXIT.error;
    }
    if (!(await context.confirm(CONFIRM_QUESTION))) {
      io.stderr(`${PREFIX}: not applied: not confirmed`);
      return DECLARATION_EXIT.error;
    }
  }

  const applied = await api.apply(document, prune, plan.fingerprint);
  if (!applied.ok) {
    if (applied.code === 'plan_stale') {
      io.stderr(
        `${PREFIX}: nothing was applied: the workspace (or the file) changed since this plan was made ` +
          '(409 plan_stale); plan again and review the new plan',
      );
      return DECLARATION_EXIT.error;
    }
    reportFailure(context, applied, prepared.prepared);
    return DECLARATION_EXIT.error;
  }
  io.stdout('');
  for (const line of renderApplied(applied.value, mask)) io.stdout(line);
  return DECLARATION_EXIT.ok;
}
