import type { EntityManager } from '@mikro-orm/postgresql';
import type { Change } from '../changes/entities/change.entity';
import { recordEvent } from '../events/outbox';
import type { MonitorCheck } from '../monitors/entities/monitor-check.entity';
import type { Monitor } from '../monitors/entities/monitor.entity';
import { AlertRule } from './entities/alert-rule.entity';

/**
 * The alerting step of recording a check, inside the recorder's transaction and under the monitor's row lock: moves
 * each rule's incident state and writes the events it causes to the outbox, so the events commit exactly when the
 * check does. Sending happens later, elsewhere: a slow receiver never delays a check.
 */
export async function raiseAlerts(em: EntityManager, monitor: Monitor, check: MonitorCheck, changes: Change[]) {
  const rules = await em.find(AlertRule, { monitor, enabled: true }, { orderBy: { createdAt: 'asc' } });
  const workspaceId = monitor.workspace.id;
  const about = { id: monitor.id, name: monitor.name, url: monitor.url };
  for (const rule of rules) {
    if (rule.event !== 'down' && rule.event !== 'response_time') continue;
    const failing = rule.event === 'down' ? !check.ok : check.ok && check.responseTimeMs > (rule.thresholdMs ?? 0);
    const streaks = Object.fromEntries(monitor.regions.map((region) => [region, rule.streaks[region] ?? 0]));
    streaks[check.region] = failing ? (streaks[check.region] ?? 0) + 1 : 0;
    rule.streaks = streaks;
    const confirmedRegions = Object.values(streaks).filter((streak) => streak >= rule.consecutiveFailures).length;
    const confirmed = confirmedRegions >= Math.min(rule.minRegions, monitor.regions.length);
    const data = {
      monitor: about,
      rule_id: rule.id,
      reason: rule.event === 'down' ? 'down' : 'slow',
      region: check.region,
      status_code: check.statusCode,
      response_time_ms: check.responseTimeMs,
      message: check.message,
      checked_at: check.checkedAt.toISOString(),
    };
    // One order per monitor: a receiver never hears of a recovery before the down it ends.
    const tell = (type: 'monitor.down' | 'monitor.recovered', extra: Record<string, unknown> = {}) =>
      recordEvent(em, {
        workspaceId,
        type,
        data: { ...data, ...extra },
        destinationIds: rule.destinationIds,
        orderingKey: monitor.id,
      });
    const now = check.checkedAt;
    if (confirmed && rule.state !== 'firing') {
      rule.state = 'firing';
      rule.notifiedAt = now;
      tell('monitor.down');
    } else if (confirmed) {
      const due =
        rule.reminderMinutes !== null &&
        now.getTime() - (rule.notifiedAt?.getTime() ?? 0) >= rule.reminderMinutes * 60_000;
      if (due) {
        rule.notifiedAt = now;
        tell('monitor.down', { reminder: true });
      }
    } else {
      if (rule.state === 'firing' && rule.notifyRecovery) tell('monitor.recovered');
      rule.state = Object.values(streaks).some((streak) => streak > 0) ? 'pending' : 'ok';
      if (rule.state === 'ok') rule.notifiedAt = null;
    }
  }
  for (const change of changes) {
    const wanted = change.kind === 'content' ? 'change' : 'value_change';
    const destinationIds = [
      ...new Set(rules.filter((rule) => rule.event === wanted).flatMap((rule) => rule.destinationIds)),
    ];
    recordEvent(em, {
      workspaceId,
      type: change.kind === 'content' ? 'change.detected' : 'value.changed',
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
