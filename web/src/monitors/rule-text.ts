import { formatInterval, plural } from '../format';
import type { AlertRule, RuleEvent, RuleState } from '../types';

export const RULE_EVENTS: { value: RuleEvent; label: string }[] = [
  { value: 'down', label: 'The monitor is down' },
  { value: 'response_time', label: 'Responses are slow' },
  { value: 'change', label: 'A change is detected' },
  { value: 'value_change', label: 'A tracked value changes' },
  { value: 'certificate_expiry', label: 'The certificate expires soon' },
];

export const RULE_TITLE: Record<RuleEvent, string> = {
  down: 'Down',
  response_time: 'Slow responses',
  change: 'Changes',
  value_change: 'Tracked value changes',
  certificate_expiry: 'Certificate expiry',
};

export const STATE: Record<RuleState, { label: string; tone: string }> = {
  ok: { label: 'OK', tone: 'success' },
  pending: { label: 'Pending: failing, not yet confirmed', tone: 'warning' },
  firing: { label: 'Firing: alerted, not yet recovered', tone: 'danger' },
};

/** Rules that fire and recover (the others send each change as it comes). */
export const incident = (event: RuleEvent) =>
  event === 'down' || event === 'response_time' || event === 'certificate_expiry';

/** Rules confirmed over checks in a row and regions, with reminders (a certificate fires once, at once). */
export const confirmed = (event: RuleEvent) => event === 'down' || event === 'response_time';

/** What a rule does, in a sentence or two. */
export function ruleSentence(rule: AlertRule): string {
  const { consecutive_failures: failures, min_regions: regions } = rule.confirm;
  const where = `in at least ${plural(regions, 'region')}`;
  const parts: string[] = [];
  switch (rule.event) {
    case 'down':
      parts.push(`Alerts when ${failures === 1 ? 'a check fails' : `${failures} checks in a row fail`} ${where}.`);
      break;
    case 'response_time': {
      const slow = `slower than ${rule.threshold_ms ?? '?'} ms`;
      parts.push(
        `Alerts when ${failures === 1 ? `a check is ${slow}` : `${failures} checks in a row are ${slow}`} ${where}.`,
      );
      break;
    }
    case 'change':
      parts.push('Sends each change detected on the page.');
      break;
    case 'value_change':
      parts.push('Sends each change of a tracked value.');
      break;
    case 'certificate_expiry':
      parts.push(
        `Alerts once per certificate when the site serves one with ${plural(rule.days_before ?? 0, 'day')} or fewer left.`,
      );
      break;
  }
  if (incident(rule.event)) {
    const recovers = rule.event === 'certificate_expiry' ? 'when a renewed certificate is served' : 'when it recovers';
    parts.push(rule.notify_recovery ? `Tells the same destinations ${recovers}.` : 'Says nothing on recovery.');
  }
  if (rule.reminder_minutes) parts.push(`Reminds every ${formatInterval(rule.reminder_minutes * 60)} while firing.`);
  return parts.join(' ');
}
