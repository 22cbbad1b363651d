import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { NotFound, ValidationFailed } from '../common/errors/domain-errors';
import { type Page, type PageQuery, pageOf, pageWindow } from '../common/pagination/pagination';
import { Monitor } from '../monitors/entities/monitor.entity';
import type { AlertRuleDto, CreateAlertRuleDto, HeldAlertDto, UpdateAlertRuleDto } from './dto/alerts.dto';
import { HeldAlert } from './entities/held-alert.entity';
import { ALERT_DESTINATIONS, AlertDestination } from './entities/alert-destination.entity';
import { AlertRule, type RuleEvent } from './entities/alert-rule.entity';

/** Alert rules of the workspace's monitors (rules are reached through their monitor, which the scope filters). */
@Injectable()
export class RulesService {
  constructor(private readonly em: EntityManager) {}

  async list(monitorId: string, query: PageQuery): Promise<Page<AlertRuleDto>> {
    const monitor = await this.monitor(monitorId);
    const [rules, total] = await this.em.findAndCount(
      AlertRule,
      { monitor },
      { orderBy: { createdAt: 'asc', id: 'asc' }, ...pageWindow(query) },
    );
    return pageOf(rules.map(present), total, query);
  }

  /** The alerts of the monitor's dependents held because it was down, newest first. */
  async heldAlerts(monitorId: string, query: PageQuery): Promise<Page<HeldAlertDto>> {
    const parent = await this.monitor(monitorId);
    const [held, total] = await this.em.findAndCount(
      HeldAlert,
      { parent },
      { orderBy: { heldAt: 'desc', id: 'desc' }, populate: ['monitor'], ...pageWindow(query) },
    );
    return pageOf(
      held.map((alert) => ({
        id: alert.id,
        monitor_id: alert.monitor.id,
        monitor_name: alert.monitor.name,
        parent_id: parent.id,
        rule_id: alert.ruleId,
        region: alert.region,
        status_code: alert.statusCode,
        message: alert.message,
        checked_at: alert.checkedAt.toISOString(),
        held_at: alert.heldAt.toISOString(),
      })),
      total,
      query,
    );
  }

  async create(monitorId: string, input: CreateAlertRuleDto): Promise<AlertRuleDto> {
    assertRuleInput(input);
    const [rule] = await this.createMany([{ monitorId, input }]);
    return rule;
  }

  /**
   * Creates rules together (a declaration's): each must have passed `assertRuleInput`; their monitors and
   * destinations are read once for all.
   */
  async createMany(rules: { monitorId: string; input: CreateAlertRuleDto }[]): Promise<AlertRuleDto[]> {
    const ids = [...new Set(rules.map((rule) => rule.monitorId))];
    const monitors = new Map(
      (await this.em.find(Monitor, { id: { $in: ids } })).map((monitor) => [monitor.id, monitor]),
    );
    // Another workspace's monitor is not found, before anything about the rule is said.
    if (ids.some((id) => !monitors.has(id))) throw new NotFound('Monitor');
    await this.assertDestinations([...new Set(rules.flatMap((rule) => rule.input.destination_ids))]);
    const created = rules.map(({ monitorId, input }) => {
      const monitor = monitors.get(monitorId)!;
      return this.em.create(AlertRule, {
        monitor,
        event: input.event,
        destinationIds: input.destination_ids,
        ...(input.confirm?.consecutive_failures ? { consecutiveFailures: input.confirm.consecutive_failures } : {}),
        ...(input.confirm?.min_regions ? { minRegions: input.confirm.min_regions } : {}),
        thresholdMs: input.threshold_ms ?? null,
        daysBefore: input.days_before ?? null,
        ...(input.notify_recovery !== undefined ? { notifyRecovery: input.notify_recovery } : {}),
        reminderMinutes: input.reminder_minutes ?? null,
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      });
    });
    await this.em.flush();
    return created.map(present);
  }

  async update(monitorId: string, ruleId: string, input: UpdateAlertRuleDto): Promise<AlertRuleDto> {
    const monitor = await this.monitor(monitorId);
    const rule = await this.em.findOne(AlertRule, { id: ruleId, monitor });
    if (!rule) throw new NotFound('Alert rule');
    assertCertificateFields(rule.event, input);
    if (input.destination_ids !== undefined) {
      await this.assertDestinations(input.destination_ids);
      rule.destinationIds = input.destination_ids;
    }
    if (input.confirm?.consecutive_failures !== undefined)
      rule.consecutiveFailures = input.confirm.consecutive_failures;
    if (input.confirm?.min_regions !== undefined) rule.minRegions = input.confirm.min_regions;
    if (input.threshold_ms !== undefined) rule.thresholdMs = input.threshold_ms;
    if (input.days_before !== undefined && input.days_before !== rule.daysBefore) {
      rule.daysBefore = input.days_before;
      // Another threshold starts over quietly: the next check fires it if the certificate is within the new one.
      Object.assign(rule, { state: 'ok', notifiedAt: null, firedFor: null });
    }
    if (input.notify_recovery !== undefined) rule.notifyRecovery = input.notify_recovery;
    if (input.reminder_minutes !== undefined) rule.reminderMinutes = input.reminder_minutes;
    if (input.enabled !== undefined) {
      rule.enabled = input.enabled;
      // A rule switched off forgets its incident; switched on again, it starts from a clean slate.
      if (!input.enabled) Object.assign(rule, { state: 'ok', streaks: {}, notifiedAt: null, firedFor: null });
    }
    await this.em.flush();
    return present(rule);
  }

  /** Deletes the rule; what it already sent stays in the delivery log (deliveries belong to events, not rules). */
  async delete(monitorId: string, ruleId: string): Promise<void> {
    const monitor = await this.monitor(monitorId);
    if (!(await this.em.nativeDelete(AlertRule, { id: ruleId, monitor }))) throw new NotFound('Alert rule');
  }

  private async monitor(id: string): Promise<Monitor> {
    const monitor = await this.em.findOne(Monitor, { id });
    if (!monitor) throw new NotFound('Monitor');
    return monitor;
  }

  /** Every id must name one of the workspace's alert destinations (a code-host connection takes no alerts). */
  private async assertDestinations(ids: string[]): Promise<void> {
    const found = await this.em.find(AlertDestination, { id: { $in: ids }, ...ALERT_DESTINATIONS }, { fields: ['id'] });
    const unknown = ids.filter((id) => !found.some((destination) => destination.id === id));
    if (unknown.length) {
      throw ValidationFailed.field('destination_ids', `unknown destination ${unknown.join(', ')}`);
    }
  }
}

/**
 * `days_before` belongs to `certificate_expiry` rules only, and they take no confirmation, reminders or threshold: a
 * certificate's days left are the same in every region and on every check of a day, and it fires once per certificate.
 */
function assertCertificateFields(event: RuleEvent, input: UpdateAlertRuleDto): void {
  if (event !== 'certificate_expiry') {
    if (input.days_before !== undefined)
      throw ValidationFailed.field('days_before', 'is only for a certificate_expiry rule');
    return;
  }
  for (const field of ['confirm', 'threshold_ms', 'reminder_minutes'] as const) {
    if (input[field] !== undefined && input[field] !== null) {
      throw ValidationFailed.field(field, 'is not taken by a certificate_expiry rule');
    }
  }
}

/** What a new rule needs beyond its fields' own checks: the settings its event reads. */
export function assertRuleInput(input: CreateAlertRuleDto): void {
  if (input.event === 'response_time' && input.threshold_ms === undefined) {
    throw ValidationFailed.field('threshold_ms', 'is required for a response_time rule');
  }
  assertCertificateFields(input.event, input);
  if (input.event === 'certificate_expiry' && input.days_before === undefined) {
    throw ValidationFailed.field('days_before', 'is required for a certificate_expiry rule');
  }
}

export function present(rule: AlertRule): AlertRuleDto {
  return {
    id: rule.id,
    monitor_id: rule.monitor.id,
    event: rule.event,
    destination_ids: rule.destinationIds,
    confirm: { consecutive_failures: rule.consecutiveFailures, min_regions: rule.minRegions },
    threshold_ms: rule.thresholdMs,
    days_before: rule.daysBefore,
    notify_recovery: rule.notifyRecovery,
    reminder_minutes: rule.reminderMinutes,
    enabled: rule.enabled,
    state: rule.state,
    declaration_key: rule.declarationKey,
    created_at: rule.createdAt.toISOString(),
  };
}
