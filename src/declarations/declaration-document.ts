import type { ClassConstructor } from 'class-transformer';
import { DestinationConfigInputDto } from '../alerts/dto/alerts.dto';
import { ValidationFailed, type FieldError } from '../common/errors/domain-errors';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { type DesiredResource, isRecord, type Spec } from './declaration-plan';
import {
  DECLARATION_KEY,
  DeclarationDto,
  DeclaredAlertDestinationDto,
  DeclaredAlertRuleDto,
  DeclaredMaintenanceWindowDto,
  DeclaredMonitorDto,
  DeclaredStatusPageDto,
  KEY_MESSAGE,
} from './dto/declaration.dto';

/** At most this many errors are reported for one document: enough to fix a file, not a flood. */
const MAX_ERRORS = 100;
/** A secret the caller did not resolve: the CLI replaces `${ENV}` references before sending. */
const UNRESOLVED = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

/** A declared resource: its path in the document, its validated body, and its spec to compare. */
export interface Declared<T> {
  key: string;
  path: string;
  body: T;
  /** The body as plain JSON, without the `id` it adopts by and its nested resources. */
  spec: Spec;
  adopts?: string;
}

export interface DeclaredRule extends Declared<DeclaredAlertRuleDto> {
  monitorKey: string;
  ruleKey: string;
}

/** A validated document, by kind and key; what it names of its own refers to resources it declares. */
export interface ParsedDeclaration {
  destinations: Declared<DeclaredAlertDestinationDto>[];
  monitors: Declared<DeclaredMonitorDto>[];
  rules: DeclaredRule[];
  statusPages: Declared<DeclaredStatusPageDto>[];
  windows: Declared<DeclaredMaintenanceWindowDto>[];
}

const pipe = createValidationPipe();

/** The value's fields in the order the author wrote them (a plan lists them so), nested objects too. */
function inAuthorsOrder(value: unknown, written: unknown): unknown {
  if (!isRecord(value) || !isRecord(written)) return value;
  const order = Object.keys(written);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([key, item]) => [key, inAuthorsOrder(item, written[key])]),
  );
}

/** Plain JSON of a validated body: what the document says, after the conversions validation made. */
function plain(value: object, written: unknown, omit: string[]): Spec {
  const json = inAuthorsOrder(JSON.parse(JSON.stringify(value)), written) as Spec;
  for (const field of omit) delete json[field];
  return json;
}

/** Collects the errors of a whole document, each under its path, and throws them together. */
class Errors {
  readonly list: FieldError[] = [];

  add(field: string, message: string): void {
    if (this.list.length < MAX_ERRORS) this.list.push({ field, message });
  }

  /** The value validated as a `type`, or null with its errors recorded under `path`. */
  async validate<T extends object>(value: unknown, type: ClassConstructor<T>, path: string): Promise<T | null> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.add(path || 'document', 'must be an object');
      return null;
    }
    try {
      return (await pipe.transform(value, { type: 'body', metatype: type })) as T;
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      for (const failure of error.errors) this.add(path ? `${path}.${failure.field}` : failure.field, failure.message);
      return null;
    }
  }

  throwIfAny(): void {
    if (this.list.length) throw new ValidationFailed(this.list);
  }
}

/** The entries of a keyed section, with their keys checked. */
function entries(section: unknown, path: string, errors: Errors): [string, unknown][] {
  if (section === undefined) return [];
  return Object.entries(section as Record<string, unknown>).filter(([key]) => {
    if (!DECLARATION_KEY.test(key)) errors.add(`${path}.${key}`, KEY_MESSAGE);
    return DECLARATION_KEY.test(key);
  });
}

/**
 * A declaration checked as a whole: its shape, each resource by the same rules as the API's requests, its keys,
 * what they refer to, and that no secret is left as an `${ENV}` reference. Throws one `validation_failed` naming the
 * path of each offending field (`monitors.shop.url`).
 */
export async function parseDeclaration(document: unknown): Promise<ParsedDeclaration> {
  const errors = new Errors();
  const top = await errors.validate(document, DeclarationDto, '');
  errors.throwIfAny();
  const root = top as DeclarationDto;
  const parsed: ParsedDeclaration = { destinations: [], monitors: [], rules: [], statusPages: [], windows: [] };
  const destinations = entries(root.alert_destinations, 'alert_destinations', errors);
  const monitors = entries(root.monitors, 'monitors', errors);
  // What a reference may name: every key the document declares (an entry with errors of its own still counts).
  const destinationKeys = new Set(destinations.map(([key]) => key));
  const monitorKeys = new Set(monitors.map(([key]) => key));

  for (const [key, value] of destinations) {
    const path = `alert_destinations.${key}`;
    const body = await errors.validate(value, DeclaredAlertDestinationDto, path);
    if (!body) continue;
    const unresolved = Object.entries(body.config).filter(
      ([, text]) => typeof text === 'string' && UNRESOLVED.test(text),
    );
    for (const [field] of unresolved) {
      errors.add(`${path}.config.${field}`, 'is an unresolved ${ENV} reference: resolve it before sending');
    }
    // Resolved, the settings are what the API takes.
    if (!unresolved.length && !(await errors.validate(body.config, DestinationConfigInputDto, `${path}.config`)))
      continue;
    parsed.destinations.push({ key, path, body, spec: plain(body, value, ['id']), adopts: body.id });
  }
  for (const [key, value] of monitors) {
    const path = `monitors.${key}`;
    const body = await errors.validate(value, DeclaredMonitorDto, path);
    if (!body) continue;
    parsed.monitors.push({ key, path, body, spec: plain(body, value, ['id', 'rules']), adopts: body.id });
    for (const [ruleKey, rule] of entries(body.rules, `${path}.rules`, errors)) {
      const rulePath = `${path}.rules.${ruleKey}`;
      const ruleBody = await errors.validate(rule, DeclaredAlertRuleDto, rulePath);
      if (!ruleBody) continue;
      ruleBody.destinations.forEach((destination, index) => {
        if (!destinationKeys.has(destination)) {
          errors.add(`${rulePath}.destinations[${index}]`, `no alert destination "${destination}" in the document`);
        }
      });
      parsed.rules.push({
        key: `${key}/${ruleKey}`,
        path: rulePath,
        body: ruleBody,
        spec: plain(ruleBody, rule, ['id']),
        adopts: ruleBody.id,
        monitorKey: key,
        ruleKey,
      });
    }
  }
  const valid = new Map(parsed.monitors.map((monitor) => [monitor.key, monitor]));
  for (const monitor of parsed.monitors) {
    const parent = monitor.body.parent;
    if (parent === undefined || parent === null) continue;
    if (!monitorKeys.has(parent)) errors.add(`${monitor.path}.parent`, `no monitor "${parent}" in the document`);
    // Walks up from the monitor: meeting it again means the monitors would wait for each other.
    for (let at = valid.get(parent), steps = 0; at && steps <= valid.size; steps++) {
      if (at.key === monitor.key) {
        errors.add(`${monitor.path}.parent`, 'depends on this monitor: the two would wait for each other');
        break;
      }
      at = at.body.parent ? valid.get(at.body.parent) : undefined;
    }
  }

  for (const [key, value] of entries(root.status_pages, 'status_pages', errors)) {
    const path = `status_pages.${key}`;
    const body = await errors.validate(value, DeclaredStatusPageDto, path);
    if (!body) continue;
    (body.components ?? []).forEach((component, index) => {
      component.monitors.forEach((monitor, at) => {
        if (!monitorKeys.has(monitor)) {
          errors.add(`${path}.components[${index}].monitors[${at}]`, `no monitor "${monitor}" in the document`);
        }
      });
    });
    parsed.statusPages.push({ key, path, body, spec: plain(body, value, ['id']), adopts: body.id });
  }
  for (const [key, value] of entries(root.maintenance_windows, 'maintenance_windows', errors)) {
    const path = `maintenance_windows.${key}`;
    const body = await errors.validate(value, DeclaredMaintenanceWindowDto, path);
    if (!body) continue;
    (body.monitors ?? []).forEach((monitor, at) => {
      if (!monitorKeys.has(monitor)) errors.add(`${path}.monitors[${at}]`, `no monitor "${monitor}" in the document`);
    });
    parsed.windows.push({ key, path, body, spec: plain(body, value, ['id']), adopts: body.id });
  }
  errors.throwIfAny();
  return parsed;
}

/** The parsed document as the planner sees it. */
export function desiredResources(parsed: ParsedDeclaration): DesiredResource[] {
  const of = (kind: DesiredResource['kind'], items: Declared<object>[]) =>
    items.map(({ key, spec, adopts }) => ({ kind, key, spec, ...(adopts ? { adopts } : {}) }));
  return [
    ...of('alert_destination', parsed.destinations),
    ...of('monitor', parsed.monitors),
    ...of('alert_rule', parsed.rules),
    ...of('status_page', parsed.statusPages),
    ...of('maintenance_window', parsed.windows),
  ];
}
