import { isDeepStrictEqual } from 'node:util';
import { canonicalJson, sha256 } from '../common/idempotency/idempotency-key';

/** The kinds of resource a declaration manages, in the order they are created (deleted in the reverse order). */
export const DECLARATION_KINDS = [
  'alert_destination',
  'monitor',
  'alert_rule',
  'status_page',
  'maintenance_window',
] as const;
export type DeclarationKind = (typeof DECLARATION_KINDS)[number];

/** A resource's declared fields: plain values, objects of them, arrays. Objects are compared field by field. */
export type Spec = Record<string, unknown>;

/**
 * The fields (dotted paths) whose values are secrets: given as `${ENV}` references in a file, compared, never shown.
 * A webhook's URL counts: receivers often put their token in it.
 */
export const SECRET_FIELDS: Record<DeclarationKind, readonly string[]> = {
  alert_destination: ['config.url', 'config.webhook_url'],
  monitor: [],
  alert_rule: [],
  status_page: [],
  maintenance_window: [],
};

/** What the document asks for: one resource, by its kind and logical key. */
export interface DesiredResource {
  kind: DeclarationKind;
  key: string;
  spec: Spec;
  /** An unmanaged resource the document takes over (its `id` in the document). */
  adopts?: string;
}

/** What the workspace holds: a resource in the same shape as declared (every field), and who manages it. */
export interface CurrentResource {
  kind: DeclarationKind;
  id: string;
  /** Its logical key; null when nothing manages it (it changes only when adopted). */
  key: string | null;
  spec: Spec;
}

export interface FieldChange {
  field: string;
  /** Null for a secret, and before a resource exists. */
  before: unknown;
  /** Null for a secret, and once a resource is deleted. */
  after: unknown;
  secret: boolean;
}

export interface PlannedChange {
  action: 'create' | 'update' | 'delete';
  kind: DeclarationKind;
  key: string;
  /** The resource's id; null until it is created. */
  id: string | null;
  fields: FieldChange[];
}

/** An object that is not an array: its fields are compared one by one. */
export function isRecord(value: unknown): value is Spec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every leaf field of a spec by its dotted path (arrays are leaves: a list changes as a whole). */
function flatten(spec: Spec, prefix = ''): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  for (const [name, value] of Object.entries(spec)) {
    if (value === undefined) continue;
    const path = prefix + name;
    if (isRecord(value) && Object.keys(value).length > 0) {
      for (const [inner, item] of flatten(value, `${path}.`)) fields.set(inner, item);
    } else fields.set(path, value);
  }
  return fields;
}

/** A value at a dotted path, or undefined. */
function valueAt(spec: Spec, path: string): unknown {
  let at: unknown = spec;
  for (const segment of path.split('.')) {
    if (!isRecord(at)) return undefined;
    at = at[segment];
  }
  return at;
}

export const isSecret = (kind: DeclarationKind, field: string) =>
  SECRET_FIELDS[kind].some((secret) => field === secret || field.startsWith(`${secret}.`));

/** The spec with every secret replaced by its digest: what a fingerprint may be computed over. */
function withoutSecrets(kind: DeclarationKind, spec: Spec): Spec {
  return Object.fromEntries(
    [...flatten(spec)].map(([field, value]) => [field, isSecret(kind, field) ? sha256(canonicalJson(value)) : value]),
  );
}

/**
 * The fields a declared resource would change. Only the fields the document names are compared: one it leaves out
 * keeps the resource's value (the service's default when it is created).
 */
function changedFields(desired: DesiredResource, current: Spec | null): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, after] of flatten(desired.spec)) {
    const before = current === null ? null : (valueAt(current, field) ?? null);
    if (current !== null && isDeepStrictEqual(before, after)) continue;
    const secret = isSecret(desired.kind, field);
    changes.push({ field, before: secret ? null : before, after: secret ? null : after, secret });
  }
  return changes;
}

const kindOrder = (kind: DeclarationKind) => DECLARATION_KINDS.indexOf(kind);
const byKindThenKey = (a: { kind: DeclarationKind; key: string }, b: { kind: DeclarationKind; key: string }) =>
  kindOrder(a.kind) - kindOrder(b.kind) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The plan: what applying the document would create, change and (with `prune`) delete. A declared resource is the
 * managed one with its key, or the unmanaged one it adopts (which changes its `declaration_key` too); a managed
 * resource the document no longer names is deleted only with `prune`, and an unmanaged one never. Creations and
 * changes come first, in the order of DECLARATION_KINDS (what a later kind refers to exists by then), deletions last,
 * in the reverse order.
 */
export function planChanges(
  desired: readonly DesiredResource[],
  current: readonly CurrentResource[],
  options: { prune: boolean },
): PlannedChange[] {
  const managed = new Map(current.filter((r) => r.key !== null).map((r) => [`${r.kind}:${r.key}`, r]));
  const byId = new Map(current.map((r) => [r.id, r]));
  const declared = new Set<string>();
  const changes: PlannedChange[] = [];
  for (const resource of [...desired].sort(byKindThenKey)) {
    const identity = `${resource.kind}:${resource.key}`;
    declared.add(identity);
    const existing = managed.get(identity) ?? (resource.adopts ? byId.get(resource.adopts) : undefined);
    if (!existing) {
      changes.push({
        action: 'create',
        kind: resource.kind,
        key: resource.key,
        id: null,
        fields: changedFields(resource, null),
      });
      continue;
    }
    const fields = changedFields(resource, existing.spec);
    if (existing.key !== resource.key) {
      fields.unshift({ field: 'declaration_key', before: existing.key, after: resource.key, secret: false });
    }
    if (fields.length > 0) {
      changes.push({ action: 'update', kind: resource.kind, key: resource.key, id: existing.id, fields });
    }
  }
  if (options.prune) {
    const orphans = [...managed.entries()]
      .filter(([identity]) => !declared.has(identity))
      .map(([, resource]) => ({ ...resource, key: resource.key as string }))
      .sort(byKindThenKey)
      .reverse();
    for (const orphan of orphans) {
      changes.push({ action: 'delete', kind: orphan.kind, key: orphan.key, id: orphan.id, fields: [] });
    }
  }
  return changes;
}

/**
 * What a plan was made from: the document, `prune`, and the resources it could touch (the managed ones and those it
 * adopts) as they were; secrets only as digests. Apply recomputes it: another value means the workspace (or the
 * document) moved since the plan was reviewed.
 */
export function planFingerprint(
  desired: readonly DesiredResource[],
  current: readonly CurrentResource[],
  options: { prune: boolean },
): string {
  const adopted = new Set(desired.map((resource) => resource.adopts).filter(Boolean));
  return sha256(
    canonicalJson({
      desired: [...desired]
        .sort(byKindThenKey)
        .map((resource) => ({ ...resource, spec: withoutSecrets(resource.kind, resource.spec) })),
      current: current
        .filter((resource) => resource.key !== null || adopted.has(resource.id))
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((resource) => ({ ...resource, spec: withoutSecrets(resource.kind, resource.spec) })),
      prune: options.prune,
    }),
  );
}
