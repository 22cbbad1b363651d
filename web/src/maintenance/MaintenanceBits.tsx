import { Badge } from '../components/Badge';
import type { RadioOption } from '../components/RadioField';
import { plural } from '../format';
import type { MaintenanceEffect, MaintenanceStatus, MaintenanceWindow, Monitor } from '../types';

/** What each effect does, as the form offers it and as the list says it was chosen. */
export const EFFECTS: (RadioOption<MaintenanceEffect> & { word: string })[] = [
  {
    value: 'mute_alerts',
    label: 'Mute alerts',
    word: 'Alerts muted',
    hint: 'Checks go on and are recorded, but no alert fires or is sent, now or later.',
  },
  {
    value: 'pause_checks',
    label: 'Pause checks',
    word: 'Checks paused',
    hint: 'Scheduled checks are not run (heartbeat monitors, which run none, are muted instead).',
  },
];

export const effectWord = (effect: MaintenanceEffect) => EFFECTS.find((item) => item.value === effect)!.word;

const STATUS: Record<MaintenanceStatus, { label: string; tone: string }> = {
  scheduled: { label: 'Scheduled', tone: 'info' },
  active: { label: 'Active', tone: 'warning' },
  completed: { label: 'Completed', tone: 'neutral' },
};

export function MaintenanceStatusBadge({ status }: { status: MaintenanceStatus }) {
  const { label, tone } = STATUS[status];
  return (
    <Badge tone={tone}>
      <span className="visually-hidden">Status: </span>
      {label}
    </Badge>
  );
}

/**
 * What a window covers, in words: every monitor (no monitor named), or the names of its monitors (those deleted since,
 * as such).
 */
export function coversText(maintenance: MaintenanceWindow, monitors: readonly Monitor[] | null): string {
  if (maintenance.monitor_ids.length === 0) return 'All monitors';
  if (!monitors) return plural(maintenance.monitor_ids.length, 'chosen monitor');
  const named = new Map(monitors.map((monitor) => [monitor.id, monitor.name]));
  return maintenance.monitor_ids.map((id) => named.get(id) ?? 'a deleted monitor').join(', ');
}
