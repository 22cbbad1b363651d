import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import {
  type AlertKindDestination,
  present as presentDestination,
  DestinationsService,
} from '../alerts/destinations.service';
import { ALERT_DESTINATIONS, AlertDestination } from '../alerts/entities/alert-destination.entity';
import { AlertRule } from '../alerts/entities/alert-rule.entity';
import { present as presentRule, RulesService } from '../alerts/rules.service';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { DomainError, ValidationFailed } from '../common/errors/domain-errors';
import { lockUntilCommit } from '../db/transaction-lock';
import { MaintenanceWindow } from '../maintenance/entities/maintenance-window.entity';
import { MaintenanceWindowsService, presentWindow } from '../maintenance/maintenance-windows.service';
import { Monitor } from '../monitors/entities/monitor.entity';
import { presentMonitor } from '../monitors/monitor.presenter';
import { MonitorsService } from '../monitors/monitors.service';
import { StatusPage } from '../status-pages/entities/status-page.entity';
import { presentPage, StatusPagesService } from '../status-pages/status-pages.service';
import { DeclarationApply, type DeclaredServices } from './declaration-apply';
import { type Declared, desiredResources, parseDeclaration, type ParsedDeclaration } from './declaration-document';
import {
  type CurrentResource,
  type DeclarationKind,
  isSecret,
  type PlannedChange,
  planChanges,
  planFingerprint,
  type Spec,
} from './declaration-plan';
import {
  type DeclarationApplyRequestDto,
  DeclaredAlertDestinationDto,
  DeclaredAlertRuleDto,
  DeclaredMaintenanceWindowDto,
  DeclaredMonitorDto,
  DeclaredStatusPageDto,
  type DeclarationPlanDto,
  type DeclarationPlanRequestDto,
} from './dto/declaration.dto';

/** The fields a declared resource may name (its DTO's), less those that are not its own settings. */
function declaredFields(type: abstract new () => object, except: string[]): string[] {
  const names = getMetadataStorage()
    .getTargetValidationMetadatas(type as new () => object, '', false, false)
    .map((metadata) => metadata.propertyName);
  return [...new Set(names)].filter((name) => !except.includes(name));
}

const MONITOR_FIELDS = declaredFields(DeclaredMonitorDto, ['id', 'rules', 'parent']);
const RULE_FIELDS = declaredFields(DeclaredAlertRuleDto, ['id', 'destinations']);
const DESTINATION_FIELDS = declaredFields(DeclaredAlertDestinationDto, ['id', 'config']);
const PAGE_FIELDS = declaredFields(DeclaredStatusPageDto, ['id', 'components']);
const WINDOW_FIELDS = declaredFields(DeclaredMaintenanceWindowDto, ['id', 'monitors']);

/** Null and left out say the same inside a setting's objects (an assertion without `property`). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null && item !== undefined)
      .map(([name, item]) => [name, withoutNulls(item)]),
  );
}

/** The named fields of a wire object, as a declaration writes them. */
function pick(source: object, fields: string[]): Spec {
  const record = source as Record<string, unknown>;
  return Object.fromEntries(
    fields.filter((field) => field in record).map((field) => [field, withoutNulls(record[field])]),
  );
}

/** The workspace's resources of the declared kinds. */
interface Entities {
  monitors: Monitor[];
  rules: AlertRule[];
  destinations: AlertKindDestination[];
  pages: StatusPage[];
  windows: MaintenanceWindow[];
}

/** ... and the same in the declaration's shape, with who manages each. */
interface Workspace extends Entities {
  resources: CurrentResource[];
}

/** A key for a name: what an export gives a resource nothing manages yet. */
function keyFor(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56) || 'resource';
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

const envName = (...parts: string[]) =>
  parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_');

/** What a resource's operations cannot change once it is made: a new value needs a new resource (a new key). */
const FIXED_FIELDS: Partial<Record<DeclarationKind, string>> = { alert_destination: 'type', alert_rule: 'event' };

function assertChangeable(parsed: ParsedDeclaration, changes: PlannedChange[]): void {
  const paths = new Map(
    [...parsed.destinations, ...parsed.rules].map((declared) => [declared.key, declared.path] as const),
  );
  const errors = changes.flatMap((change) => {
    const fixed = FIXED_FIELDS[change.kind];
    if (change.action !== 'update' || !change.fields.some((field) => field.field === fixed)) return [];
    return [
      {
        field: `${paths.get(change.key)}.${fixed}`,
        message: 'cannot change once made: give it a new key (prune deletes the old one)',
      },
    ];
  });
  if (errors.length) throw new ValidationFailed(errors);
}

class PlanStale extends DomainError {
  constructor() {
    super(
      'plan_stale',
      'The workspace (or the document) changed since this plan was made: plan again, review, and apply the new plan.',
    );
  }
}

/**
 * Monitoring as code: a workspace's monitors, their rules, alert destinations, status pages and maintenance windows
 * declared in one document, planned against what the workspace holds and applied in one transaction
 * (DeclarationApply). Every change goes through the resource's own service, so a declared resource obeys the rules of
 * one made by hand.
 */
@Injectable()
export class DeclarationsService {
  private readonly services: DeclaredServices;

  constructor(
    private readonly em: EntityManager,
    monitors: MonitorsService,
    rules: RulesService,
    destinations: DestinationsService,
    pages: StatusPagesService,
    windows: MaintenanceWindowsService,
  ) {
    this.services = { monitors, rules, destinations, pages, windows };
  }

  async plan(input: DeclarationPlanRequestDto): Promise<DeclarationPlanDto> {
    const parsed = await parseDeclaration(input.document);
    const { changes, fingerprint } = await this.planOf(parsed, input.prune ?? false);
    return { fingerprint, changes };
  }

  /** Applies the plan it was given the fingerprint of, all or nothing. */
  async apply(principal: WorkspacePrincipal, input: DeclarationApplyRequestDto): Promise<DeclarationPlanDto> {
    const parsed = await parseDeclaration(input.document);
    return this.em.transactional(async (tx) => {
      // One apply at a time in a workspace: the plan checked is the plan made.
      await lockUntilCommit(tx, `declaration:${principal.workspace.id}`);
      const { changes, fingerprint, workspace } = await this.planOf(parsed, input.prune ?? false);
      if (fingerprint !== input.fingerprint) throw new PlanStale();
      await new DeclarationApply(this.em, this.services, principal, parsed, changes, workspace).run();
      const after = await this.planOf(parsed, input.prune ?? false);
      return { fingerprint: after.fingerprint, changes };
    });
  }

  /** Today's workspace as a declaration: managed resources under their keys, the others with keys and ids to adopt. */
  async export(): Promise<Record<string, unknown>> {
    // References written with the keys this export gives (a rule names its destination by the key it has here).
    const workspace = await this.load(true);
    const keys = this.keysOf(workspace);
    const specs = new Map(workspace.resources.map((resource) => [resource.id, resource.spec]));
    const rulesOf = Map.groupBy(workspace.rules, (rule) => rule.monitor.id);
    // What the workspace holds, less what is unset (a file leaves it out; the API takes no null for most fields).
    const spec = (id: string) =>
      Object.fromEntries(Object.entries(specs.get(id)!).filter(([, value]) => value !== null));
    const adopt = (entity: { id: string; declarationKey: string | null }) =>
      entity.declarationKey === null ? { id: entity.id } : {};

    const alertDestinations = Object.fromEntries(
      workspace.destinations.map((destination) => {
        const key = keys.get(destination.id)!;
        const declared = spec(destination.id);
        const config = Object.fromEntries(
          Object.entries((declared.config ?? {}) as Spec).map(([field, value]) => [
            field,
            isSecret('alert_destination', `config.${field}`) ? `\${${envName(key, field)}}` : value,
          ]),
        );
        return [key, { ...adopt(destination), ...declared, config }];
      }),
    );
    const monitors = Object.fromEntries(
      workspace.monitors.map((monitor) => {
        const rules = rulesOf.get(monitor.id) ?? [];
        const declared: Spec = { ...adopt(monitor), ...spec(monitor.id) };
        if (rules.length) {
          declared.rules = Object.fromEntries(
            rules.map((rule) => [keys.get(rule.id)!.split('/')[1], { ...adopt(rule), ...spec(rule.id) }]),
          );
        }
        return [keys.get(monitor.id)!, declared];
      }),
    );
    const statusPages = Object.fromEntries(
      workspace.pages.map((page) => [keys.get(page.id)!, { ...adopt(page), ...spec(page.id) }]),
    );
    // A window's length once (its duration: `ends_at` is the same said again), every monitor as no list.
    const maintenanceWindows = Object.fromEntries(
      workspace.windows.map((window) => {
        const { monitors: covered, ...declared } = spec(window.id);
        delete declared.ends_at;
        return [
          keys.get(window.id)!,
          { ...adopt(window), ...declared, ...((covered as string[]).length ? { monitors: covered } : {}) },
        ];
      }),
    );
    return {
      version: 1,
      alert_destinations: alertDestinations,
      monitors,
      status_pages: statusPages,
      maintenance_windows: maintenanceWindows,
    };
  }

  /** Every resource's key: its own when managed, else one made from its name (unique in its kind). */
  private keysOf(workspace: Entities): Map<string, string> {
    const keys = new Map<string, string>();
    const give = (items: { id: string; declarationKey: string | null }[], nameOf: (id: string) => string) => {
      const taken = new Set(items.map((item) => item.declarationKey).filter((key): key is string => key !== null));
      for (const item of items) keys.set(item.id, item.declarationKey ?? keyFor(nameOf(item.id), taken));
    };
    const named = (items: { id: string; name?: string; slug?: string }[]) => {
      const byId = new Map(items.map((item) => [item.id, item]));
      return (id: string) => byId.get(id)?.name ?? byId.get(id)?.slug ?? id;
    };
    give(workspace.destinations, named(workspace.destinations));
    give(workspace.monitors, named(workspace.monitors));
    give(workspace.pages, named(workspace.pages));
    give(workspace.windows, named(workspace.windows.map((window) => ({ id: window.id, name: window.title }))));
    const rulesOf = Map.groupBy(workspace.rules, (rule) => rule.monitor.id);
    for (const monitor of workspace.monitors) {
      const rules = rulesOf.get(monitor.id) ?? [];
      const taken = new Set(rules.map((rule) => rule.declarationKey).filter((key): key is string => key !== null));
      for (const rule of rules) {
        keys.set(rule.id, `${keys.get(monitor.id)}/${rule.declarationKey ?? keyFor(rule.event, taken)}`);
      }
    }
    return keys;
  }

  private async planOf(parsed: ParsedDeclaration, prune: boolean) {
    const workspace = await this.load();
    this.assertAdoptable(parsed, workspace);
    const desired = desiredResources(parsed);
    const changes = planChanges(desired, workspace.resources, { prune });
    assertChangeable(parsed, changes);
    return { workspace, changes, fingerprint: planFingerprint(desired, workspace.resources, { prune }) };
  }

  /** An `id` to adopt names an unmanaged resource of its kind in the workspace (or the one managed by that key). */
  private assertAdoptable(parsed: ParsedDeclaration, workspace: Workspace): void {
    const byId = new Map(workspace.resources.map((resource) => [resource.id, resource]));
    const errors: { field: string; message: string }[] = [];
    const check = (kind: DeclarationKind, items: Declared<object>[]) => {
      for (const item of items) {
        if (!item.adopts) continue;
        const found = byId.get(item.adopts);
        if (!found || found.kind !== kind)
          errors.push({ field: `${item.path}.id`, message: `no such ${kind} in this workspace` });
        else if (found.key !== null && found.key !== item.key) {
          errors.push({ field: `${item.path}.id`, message: `is managed already, as "${found.key}"` });
        }
      }
    };
    check('alert_destination', parsed.destinations);
    check('monitor', parsed.monitors);
    check('status_page', parsed.statusPages);
    check('alert_rule', parsed.rules);
    check('maintenance_window', parsed.windows);
    // A rule is adopted with its monitor: one of another monitor (or of none the file keeps) would move.
    const monitorOf = new Map(workspace.rules.map((rule) => [rule.id, rule.monitor.id]));
    const managed = new Map(workspace.monitors.map((monitor) => [monitor.declarationKey, monitor.id]));
    const monitorIds = new Map(
      parsed.monitors.map((monitor) => [monitor.key, monitor.adopts ?? managed.get(monitor.key)]),
    );
    for (const rule of parsed.rules) {
      const owner = rule.adopts === undefined ? undefined : monitorOf.get(rule.adopts);
      if (owner !== undefined && owner !== monitorIds.get(rule.monitorKey)) {
        errors.push({ field: `${rule.path}.id`, message: `is a rule of another monitor than "${rule.monitorKey}"` });
      }
    }
    if (errors.length) throw new ValidationFailed(errors);
  }

  /**
   * The workspace's resources of every declared kind, with their specs as the declaration writes them. What a spec
   * refers to is named by its key: the managed resource's own (one nothing manages by its id: it shows as changed
   * until adopted), or, for an export, the key the export gives every resource.
   */
  private async load(forExport = false): Promise<Workspace> {
    const [monitors, destinations, pages, windows] = await Promise.all([
      this.em.find(Monitor, {}, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      this.em.find(AlertDestination, ALERT_DESTINATIONS, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      this.em.find(StatusPage, {}, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      this.em.find(MaintenanceWindow, {}, { orderBy: { createdAt: 'asc', id: 'asc' } }),
    ]);
    // Rules are the workspace's through their monitors (the scope filters monitors, not rules).
    const rules = monitors.length
      ? await this.em.find(
          AlertRule,
          { monitor: { $in: monitors.map((monitor) => monitor.id) } },
          { orderBy: { createdAt: 'asc', id: 'asc' } },
        )
      : [];
    const entities = { monitors, rules, destinations: destinations as AlertKindDestination[], pages, windows };
    const keyOf = forExport
      ? this.keysOf(entities)
      : new Map<string, string | null>(
          [...monitors, ...destinations].map((resource) => [resource.id, resource.declarationKey] as const),
        );
    const ref = (id: string) => keyOf.get(id) ?? id;
    const now = new Date();
    const resources: CurrentResource[] = [
      ...(destinations as AlertKindDestination[]).map((destination) => {
        const wire = presentDestination(destination);
        return {
          kind: 'alert_destination' as const,
          id: destination.id,
          key: destination.declarationKey,
          spec: { ...pick(wire, DESTINATION_FIELDS), config: withoutNulls(destination.config) as Spec },
        };
      }),
      ...monitors.map((monitor) => ({
        kind: 'monitor' as const,
        id: monitor.id,
        key: monitor.declarationKey,
        spec: {
          ...pick(presentMonitor(monitor, ''), MONITOR_FIELDS),
          parent: monitor.parent ? ref(monitor.parent.id) : null,
        },
      })),
      ...rules.map((rule) => {
        const monitorKey = rule.monitor.declarationKey;
        return {
          kind: 'alert_rule' as const,
          id: rule.id,
          key: monitorKey !== null && rule.declarationKey !== null ? `${monitorKey}/${rule.declarationKey}` : null,
          spec: { ...pick(presentRule(rule), RULE_FIELDS), destinations: rule.destinationIds.map(ref) },
        };
      }),
      ...pages.map((page) => ({
        kind: 'status_page' as const,
        id: page.id,
        key: page.declarationKey,
        spec: {
          ...pick(presentPage(page), PAGE_FIELDS),
          components: page.components.map((component) => ({
            name: component.name,
            monitors: component.monitor_ids.map(ref),
          })),
        },
      })),
      ...windows.map((window) => ({
        kind: 'maintenance_window' as const,
        id: window.id,
        key: window.declarationKey,
        spec: { ...pick(presentWindow(window, now), WINDOW_FIELDS), monitors: window.monitorIds.map(ref) },
      })),
    ];
    return { ...entities, resources };
  }
}
