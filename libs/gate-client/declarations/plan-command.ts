import { type CommandContext, PREFIX, writeText } from './context';
import { maskDeep } from './env-references';
import { DECLARATION_EXIT, planExitCode, renderPlan } from './plan';
import { prepareDocument, reportFailure } from './prepared-document';
import { savedPlanText } from './saved-plan';
import { startServiceCommand } from './service-command';
import { PLAN_USAGE } from './usage';

/** `vigil plan FILE`: what applying the file would change; exit 0 none, 2 some, 1 error. */
export async function planCommand(argv: string[], context: CommandContext): Promise<number> {
  const start = startServiceCommand(argv, context, {
    options: { prune: { type: 'boolean' }, json: { type: 'boolean' }, out: { type: 'string' } },
    file: 'FILE',
    usage: PLAN_USAGE,
  });
  if (!start.ok) return start.code;
  const { api, values } = start;
  const prepared = prepareDocument(start.file!, context);
  if (!prepared.ok) return prepared.code;
  const { document, mask } = prepared.prepared;
  const prune = values.prune === true;

  const planned = await api.plan(document, prune);
  if (!planned.ok) {
    reportFailure(context, planned, prepared.prepared);
    return DECLARATION_EXIT.error;
  }
  const plan = planned.value;
  if (values.json === true) context.io.stdout(JSON.stringify(maskDeep(plan, mask)));
  else for (const line of renderPlan(plan, mask)) context.io.stdout(line);

  const out = typeof values.out === 'string' ? values.out : undefined;
  if (out) {
    try {
      writeText(context, out, savedPlanText(plan, prune, mask));
    } catch (error) {
      context.io.stderr(`${PREFIX}: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`);
      return DECLARATION_EXIT.error;
    }
    context.io.stderr(`${PREFIX}: saved the plan to ${out}; \`vigil apply ${start.file} --plan ${out}\` applies it`);
  }
  return planExitCode(plan);
}
