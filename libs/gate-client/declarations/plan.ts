import type { Schemas } from '../../api-client';
import { isRecord, printable } from '../check';

export type DeclarationPlan = Schemas['DeclarationPlan'];
export type DeclarationChange = Schemas['DeclarationChange'];
export type DeclarationFieldChange = Schemas['DeclarationFieldChange'];
type Action = DeclarationChange['action'];

/** The exit codes of the declaration commands; `changes` as `terraform plan -detailed-exitcode`. */
export const DECLARATION_EXIT = { ok: 0, error: 1, changes: 2, usage: 4 } as const;

const ACTIONS: readonly Action[] = ['create', 'update', 'delete'];
const SIGN: Record<Action, string> = { create: '+', update: '~', delete: '-' };
const DONE: Record<Action, string> = { create: 'created', update: 'changed', delete: 'deleted' };
/** A value longer than this is cut in the diff: the document holds it whole. */
const MAX_VALUE = 200;

/** A plan (or an apply's answer) checked at runtime: a malformed one must not read as "no changes". */
export function parsePlan(body: unknown): { ok: true; plan: DeclarationPlan } | { ok: false; reason: string } {
  if (!isRecord(body)) return { ok: false, reason: 'not a JSON object' };
  if (typeof body.fingerprint !== 'string' || !body.fingerprint)
    return { ok: false, reason: '`fingerprint` is missing' };
  if (!Array.isArray(body.changes)) return { ok: false, reason: '`changes` is not an array' };
  for (const [index, change] of body.changes.entries()) {
    const fields = isRecord(change) ? change.fields : undefined;
    const valid =
      isRecord(change) &&
      ACTIONS.includes(change.action as Action) &&
      typeof change.kind === 'string' &&
      typeof change.key === 'string' &&
      (change.id === null || typeof change.id === 'string') &&
      Array.isArray(fields) &&
      fields.every((field) => isRecord(field) && typeof field.field === 'string' && typeof field.secret === 'boolean');
    if (!valid) return { ok: false, reason: `changes[${index}] is not a change` };
  }
  return { ok: true, plan: body as unknown as DeclarationPlan };
}

/** How many resources each action touches. */
export function countChanges(changes: readonly DeclarationChange[]): Record<Action, number> {
  const counts: Record<Action, number> = { create: 0, update: 0, delete: 0 };
  for (const change of changes) counts[change.action] += 1;
  return counts;
}

/** `plan`'s exit code: 0 when the workspace already matches, 2 when applying would change it. */
export function planExitCode(plan: DeclarationPlan): number {
  return plan.changes.length ? DECLARATION_EXIT.changes : DECLARATION_EXIT.ok;
}

/**
 * A plan as a reader reviews it, like terraform's: `+ create monitor shop`, `~ update …` with a `field: before → after`
 * line per field, `- delete …`, then the counts. A secret shows only as changed; `mask` hides what came from the
 * environment in anything else.
 */
export function renderPlan(plan: DeclarationPlan, mask: (text: string) => string = (text) => text): string[] {
  if (!plan.changes.length) return ['No changes: the workspace matches the document.'];
  const lines: string[] = [];
  for (const change of plan.changes) {
    lines.push(mask(`${SIGN[change.action]} ${change.action} ${resource(change)}`));
    for (const field of change.fields) lines.push(mask(`    ${fieldLine(change.action, field)}`));
  }
  const counts = countChanges(plan.changes);
  lines.push('', `Plan: ${counts.create} to create, ${counts.update} to change, ${counts.delete} to delete.`);
  return lines;
}

/** What an apply did: a line per resource, with its id, then the counts. */
export function renderApplied(applied: DeclarationPlan, mask: (text: string) => string = (text) => text): string[] {
  if (!applied.changes.length) return ['No changes: the workspace already matched the document.'];
  const lines = applied.changes.map((change) =>
    mask(
      `${SIGN[change.action]} ${DONE[change.action]} ${resource(change)}${change.id ? ` (${printable(change.id, 40)})` : ''}`,
    ),
  );
  const counts = countChanges(applied.changes);
  lines.push('', `Applied: ${counts.create} created, ${counts.update} changed, ${counts.delete} deleted.`);
  return lines;
}

function resource(change: DeclarationChange): string {
  return `${printable(change.kind, 40)} ${printable(change.key, 200)}`;
}

function fieldLine(action: Action, field: DeclarationFieldChange): string {
  const name = printable(field.field, 200);
  // Never the value, whatever the service sent: a secret is only ever said to change.
  if (field.secret) return `${name}: ${action === 'create' ? '(secret)' : '(secret changed)'}`;
  if (action === 'create') return `${name}: ${value(field.after)}`;
  return `${name}: ${value(field.before)} → ${value(field.after)}`;
}

function value(json: unknown): string {
  return printable(json === undefined ? 'null' : JSON.stringify(json), MAX_VALUE);
}
