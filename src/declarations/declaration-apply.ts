import type { EntityManager } from '@mikro-orm/postgresql';
import type { DestinationsService } from '../alerts/destinations.service';
import type { CreateAlertDestinationDto, UpdateAlertDestinationDto } from '../alerts/dto/alerts.dto';
import { AlertDestination } from '../alerts/entities/alert-destination.entity';
import { AlertRule } from '../alerts/entities/alert-rule.entity';
import { assertRuleInput, type RulesService } from '../alerts/rules.service';
import type { WorkspacePrincipal } from '../common/auth/principal';
import { ValidationFailed } from '../common/errors/domain-errors';
import { MaintenanceWindow } from '../maintenance/entities/maintenance-window.entity';
import type { MaintenanceWindowsService } from '../maintenance/maintenance-windows.service';
import { Monitor } from '../monitors/entities/monitor.entity';
import type { MonitorsService } from '../monitors/monitors.service';
import { StatusPage } from '../status-pages/entities/status-page.entity';
import type { StatusPagesService } from '../status-pages/status-pages.service';
import type { Declared, ParsedDeclaration } from './declaration-document';
import type { CurrentResource, DeclarationKind, PlannedChange } from './declaration-plan';
import type { DeclaredMonitorDto } from './dto/declaration.dto';

/** The services a declaration's changes go through: each resource is made by the rules of its own operations. */
export interface DeclaredServices {
  monitors: MonitorsService;
  rules: RulesService;
  destinations: DestinationsService;
  pages: StatusPagesService;
  windows: MaintenanceWindowsService;
}

/** What an apply starts from: the workspace's resources in the declaration's shape, and its pages and rules. */
export interface ApplyBase {
  resources: CurrentResource[];
  pages: StatusPage[];
  rules: AlertRule[];
}

/** The entities a declaration marks with its keys. */
type KeyedEntity =
  typeof Monitor | typeof AlertDestination | typeof StatusPage | typeof AlertRule | typeof MaintenanceWindow;

/** The value without the named fields: a declared body less what is the declaration's own. */
function omit<T extends object, K extends keyof T>(value: T, ...fields: K[]): Omit<T, K> {
  const copy = { ...value };
  for (const field of fields) delete copy[field];
  return copy;
}

const byKey = <T extends { key: string }>(items: T[]) => new Map(items.map((item) => [item.key, item]));

/** Rows a statement: rules created together, keys set together. */
const ROWS_A_STATEMENT = 1000;

/**
 * One apply: makes the planned changes through each resource's service, kind by kind in the plan's order, inside the
 * caller's transaction. A resource's own checks (a public URL, its plan's room, a free slug) may still refuse it: its
 * error names the resource's path in the document, and nothing is kept.
 */
export class DeclarationApply {
  /** Each key's resource (`kind:key`): the managed ones, those adopted now, and those made as it goes. */
  private readonly ids: Map<string, string>;
  /** The keys to set, by entity and id. */
  private readonly keys = new Map<KeyedEntity, Map<string, string>>();
  private calls = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly services: DeclaredServices,
    private readonly principal: WorkspacePrincipal,
    private readonly parsed: ParsedDeclaration,
    private readonly changes: PlannedChange[],
    private readonly base: ApplyBase,
  ) {
    this.ids = new Map<string, string>([
      ...base.resources
        .filter((resource) => resource.key !== null)
        .map((resource) => [`${resource.kind}:${resource.key}`, resource.id] as const),
      ...changes
        .filter((change) => change.id !== null)
        .map((change) => [`${change.kind}:${change.key}`, change.id!] as const),
    ]);
  }

  async run(): Promise<void> {
    await this.destinations();
    await this.monitors();
    await this.rules();
    await this.statusPages();
    await this.maintenanceWindows();
    await this.writeKeys();
    await this.deletions();
  }

  private idOf(kind: DeclarationKind, key: string): string {
    return this.ids.get(`${kind}:${key}`)!;
  }

  /** Creations then updates of a kind, in the plan's order. */
  private madeOrChanged(kind: DeclarationKind): PlannedChange[] {
    return [...this.of(kind, 'create'), ...this.of(kind, 'update')];
  }

  private of(kind: DeclarationKind, action: PlannedChange['action']): PlannedChange[] {
    return this.changes.filter((change) => change.kind === kind && change.action === action);
  }

  private mark(entity: KeyedEntity, id: string, key: string): void {
    this.keys.set(entity, (this.keys.get(entity) ?? new Map<string, string>()).set(id, key));
  }

  /** Runs a service's work; a refusal names its fields under the resource's path in the document. */
  private async at<T>(path: string, work: () => T | Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ValidationFailed) {
        throw new ValidationFailed(error.errors.map((failure) => ({ ...failure, field: `${path}.${failure.field}` })));
      }
      throw error;
    }
  }

  /**
   * `at`, and the unit of work emptied every hundred calls: each service call flushes it, and MikroORM compares every
   * entity it holds, so a large apply stays linear (what was flushed is in the transaction already).
   */
  private async call<T>(path: string, work: () => Promise<T>): Promise<T> {
    const result = await this.at(path, work);
    if (++this.calls % 100 === 0) this.em.clear();
    return result;
  }

  private async destinations(): Promise<void> {
    const declared = byKey(this.parsed.destinations);
    for (const change of this.madeOrChanged('alert_destination')) {
      const { path, body } = declared.get(change.key)!;
      if (change.action === 'create') {
        const input = omit(body, 'id') as CreateAlertDestinationDto;
        change.id = (await this.call(path, () => this.services.destinations.create(this.principal, input))).id;
      } else {
        const input = omit(body, 'id', 'type') as UpdateAlertDestinationDto;
        await this.call(path, () => this.services.destinations.update(change.id!, input));
      }
      this.mark(AlertDestination, change.id!, change.key);
      this.ids.set(`alert_destination:${change.key}`, change.id!);
    }
  }

  private async monitors(): Promise<void> {
    const declared = byKey(this.parsed.monitors);
    const settings = (monitor: Declared<DeclaredMonitorDto>) => omit(monitor.body, 'id', 'rules', 'parent');
    const creations = this.of('monitor', 'create');
    if (creations.length) {
      const created = await this.at('monitors', () =>
        this.services.monitors.createMany(
          this.principal,
          creations.map((change) => settings(declared.get(change.key)!)),
          '',
        ),
      );
      this.em.clear();
      creations.forEach((change, index) => {
        change.id = created[index].id;
        this.ids.set(`monitor:${change.key}`, change.id);
      });
    }
    // Parents once every monitor exists (a parent may be created in the same apply).
    for (const change of this.madeOrChanged('monitor')) {
      this.mark(Monitor, change.id!, change.key);
      const monitor = declared.get(change.key)!;
      const { parent } = monitor.body;
      const parentId = parent === undefined ? undefined : parent === null ? null : this.idOf('monitor', parent);
      if (change.action === 'create' && parentId === undefined) continue;
      const update = {
        ...(change.action === 'update' ? settings(monitor) : {}),
        ...(parentId === undefined ? {} : { parent_id: parentId }),
      };
      await this.call(monitor.path, () => this.services.monitors.update(change.id!, update, ''));
    }
  }

  private async rules(): Promise<void> {
    const declared = byKey(this.parsed.rules);
    const input = (change: PlannedChange) => {
      const rule = declared.get(change.key)!;
      const destinationIds = rule.body.destinations.map((key) => this.idOf('alert_destination', key));
      return { ...omit(rule.body, 'id', 'destinations'), destination_ids: destinationIds };
    };
    // New rules together, a thousand at a time, each checked first under its own path.
    const creations = this.of('alert_rule', 'create');
    for (const change of creations) await this.at(declared.get(change.key)!.path, () => assertRuleInput(input(change)));
    for (let from = 0; from < creations.length; from += ROWS_A_STATEMENT) {
      const batch = creations.slice(from, from + ROWS_A_STATEMENT);
      const made = await this.at('monitors', () =>
        this.services.rules.createMany(
          batch.map((change) => ({
            monitorId: this.idOf('monitor', declared.get(change.key)!.monitorKey),
            input: input(change),
          })),
        ),
      );
      this.em.clear();
      batch.forEach((change, index) => (change.id = made[index].id));
    }
    for (const change of this.of('alert_rule', 'update')) {
      const rule = declared.get(change.key)!;
      const update = omit(input(change), 'event');
      const monitorId = this.idOf('monitor', rule.monitorKey);
      await this.call(rule.path, () => this.services.rules.update(monitorId, change.id!, update));
    }
    for (const change of this.madeOrChanged('alert_rule')) {
      this.mark(AlertRule, change.id!, declared.get(change.key)!.ruleKey);
    }
  }

  private async statusPages(): Promise<void> {
    const declared = byKey(this.parsed.statusPages);
    for (const change of this.madeOrChanged('status_page')) {
      const { path, body } = declared.get(change.key)!;
      const { components } = body;
      const existing = this.base.pages.find((page) => page.id === change.id)?.components ?? [];
      // A component keeps its id (and who follows it) by its name.
      const idByName = new Map(existing.map((known) => [known.name, known.id]));
      const input = {
        ...omit(body, 'id', 'components'),
        ...(components === undefined
          ? {}
          : {
              components: components.map((component) => ({
                ...(idByName.has(component.name) ? { id: idByName.get(component.name) } : {}),
                name: component.name,
                monitor_ids: component.monitors.map((key) => this.idOf('monitor', key)),
              })),
            }),
      };
      if (change.action === 'create') {
        change.id = (await this.call(path, () => this.services.pages.create(this.principal, input))).id;
      } else await this.call(path, () => this.services.pages.update(change.id!, input));
      this.mark(StatusPage, change.id!, change.key);
    }
  }

  private async maintenanceWindows(): Promise<void> {
    const declared = byKey(this.parsed.windows);
    for (const change of this.madeOrChanged('maintenance_window')) {
      const { path, body } = declared.get(change.key)!;
      const { monitors } = body;
      const input = {
        ...omit(body, 'id', 'monitors'),
        ...(monitors === undefined ? {} : { monitor_ids: monitors.map((key) => this.idOf('monitor', key)) }),
      };
      if (change.action === 'create') {
        change.id = (await this.call(path, () => this.services.windows.create(this.principal, input))).id;
      } else await this.call(path, () => this.services.windows.update(change.id!, input));
      this.mark(MaintenanceWindow, change.id!, change.key);
    }
  }

  /** The keys of what was made, changed or adopted, a thousand rows a statement. */
  private async writeKeys(): Promise<void> {
    for (const [entity, pairs] of this.keys) {
      const all = [...pairs.keys()];
      for (let from = 0; from < all.length; from += ROWS_A_STATEMENT) {
        const rows = await this.em.find(entity as typeof Monitor, {
          id: { $in: all.slice(from, from + ROWS_A_STATEMENT) },
        });
        for (const row of rows) row.declarationKey = pairs.get(row.id)!;
        await this.em.flush();
        this.em.clear();
      }
    }
  }

  /** Deletions last, in the plan's order (what refers to a resource goes before it). */
  private async deletions(): Promise<void> {
    const { monitors, rules, destinations, pages, windows } = this.services;
    for (const change of this.changes.filter((candidate) => candidate.action === 'delete')) {
      const id = change.id!;
      if (change.kind === 'maintenance_window') await windows.delete(id);
      else if (change.kind === 'status_page') await pages.delete(id);
      else if (change.kind === 'alert_rule') {
        const rule = this.base.rules.find((candidate) => candidate.id === id)!;
        await rules.delete(rule.monitor.id, id);
      } else if (change.kind === 'monitor') await monitors.delete(id);
      else await destinations.delete(id);
    }
  }
}
