import type { EntityManager } from '@mikro-orm/postgresql';
import type { Change } from '../changes/entities/change.entity';
import { recordEvent } from '../events/outbox';
import type { MonitorCheck } from '../monitors/entities/monitor-check.entity';
import { Monitor } from '../monitors/entities/monitor.entity';
import { AlertRule } from './entities/alert-rule.entity';
import { HeldAlert } from './entities/held-alert.entity';
import { certificateView } from '../monitors/monitor.presenter';
import { movesWithChecks, nextRuleState, withParent } from './rule-transition';

/**
 * The alerting step of recording a check, inside the recorder's transaction and under the monitor's row lock: moves
 * each rule's incident state as `nextRuleState` decides and writes the events it causes to the outbox, so the events
 * commit exactly when the check does. Sending happens later, elsewhere: a slow receiver never delays a check. While
 * the monitor's parent is down, alerts are held instead (`withParent`) and listed on the parent.
 */
export async function raiseAlerts(em: EntityManager, monitor: Monitor, check: MonitorCheck, changes: Change[]) {
  const rules = await em.find(AlertRule, { monitor, enabled: true }, { orderBy: { createdAt: 'asc' } });
  const workspaceId = monitor.workspace.id;
  const about = { id: monitor.id, name: monitor.name, url: monitor.url };
  const parent = monitor.parent && (await em.findOne(Monitor, { id: monitor.parent.id }, { fields: ['status'] }));
  for (const rule of rules) {
    if (!movesWithChecks(rule)) continue;
    const next = withParent(rule, nextRuleState(rule, monitor.regions, check), check, parent?.status === 'down');
    Object.assign(rule, {
      state: next.state,
      streaks: next.streaks,
      notifiedAt: next.notifiedAt,
      firedFor: next.firedFor,
      heldSince: next.heldSince,
    });
    if (next.held) {
      em.create(HeldAlert, {
        workspace: monitor.workspace,
        monitor,
        parent: monitor.parent!,
        ruleId: rule.id,
        region: check.region,
        statusCode: check.statusCode,
        message: check.message,
        checkedAt: check.checkedAt,
      });
    }
    if (!next.notify) continue;
    if (rule.event === 'certificate_expiry') {
      recordEvent(em, {
        workspaceId,
        type: next.notify === 'recovered' ? 'certificate.renewed' : 'certificate.expiring',
        data: {
          monitor: about,
          rule_id: rule.id,
          region: check.region,
          certificate: certificateView(check.certificate!, check.checkedAt),
          checked_at: check.checkedAt.toISOString(),
        },
        destinationIds: rule.destinationIds,
        orderingKey: monitor.id,
      });
      continue;
    }
    // One order per monitor: a receiver never hears of a recovery before the down it ends.
    recordEvent(em, {
      workspaceId,
      type: next.notify === 'recovered' ? 'monitor.recovered' : 'monitor.down',
      data: {
        monitor: about,
        rule_id: rule.id,
        reason: rule.event === 'down' ? 'down' : 'slow',
        region: check.region,
        status_code: check.statusCode,
        response_time_ms: check.responseTimeMs,
        message: check.message,
        checked_at: check.checkedAt.toISOString(),
        ...(next.notify === 'reminder' ? { reminder: true } : {}),
      },
      destinationIds: rule.destinationIds,
      orderingKey: monitor.id,
    });
  }
  for (const change of changes) {
    // A tracked value has rules of its own; every other kind of change (text, visual, metadata) is a page change.
    // During maintenance the change is recorded, and no rule's destination is told.
    const wanted = change.kind === 'value' ? 'value_change' : 'change';
    const destinationIds = check.maintenanceWindowId
      ? []
      : [...new Set(rules.filter((rule) => rule.event === wanted).flatMap((rule) => rule.destinationIds))];
    recordEvent(em, {
      workspaceId,
      type: change.kind === 'value' ? 'value.changed' : 'change.detected',
      data: {
        monitor: about,
        change_id: change.id,
        kind: change.kind,
        summary: change.summary.text,
        detected_at: change.detectedAt.toISOString(),
      },
      destinationIds,
    });
  }
}
