import { SelectField } from '../components/Field';
import { useAllMonitors } from '../hooks/useAllMonitors';
import type { Monitor } from '../types';

/**
 * The monitors `monitorId` (null for a new one) may depend on: every other monitor of the workspace but those that
 * depend on it, directly or through others (the API refuses a dependency that would loop).
 */
export function parentChoices(monitors: readonly Monitor[], monitorId: string | null): Monitor[] {
  if (!monitorId) return [...monitors];
  const below = new Set([monitorId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const monitor of monitors) {
      if (monitor.parent_id && below.has(monitor.parent_id) && !below.has(monitor.id)) {
        below.add(monitor.id);
        grew = true;
      }
    }
  }
  return monitors.filter((monitor) => !below.has(monitor.id));
}

/** The monitor form's "Depends on": another monitor of the workspace whose outage holds this one's alerts, or nothing. */
export function DependsOnField({
  monitorId,
  value,
  onChange,
  error,
}: {
  monitorId: string | null;
  value: string;
  onChange: (parentId: string) => void;
  error?: string;
}) {
  const monitors = useAllMonitors();
  const choices = monitors.data
    ? parentChoices(monitors.data, monitorId).map((monitor) => ({ value: monitor.id, label: monitor.name }))
    : // Until the list is in, the parent already chosen keeps its place (the select is disabled meanwhile).
      value
      ? [{ value, label: 'Loading monitors…' }]
      : [];
  const failed =
    monitors.error instanceof Error ? `The monitors could not be loaded: ${monitors.error.message}` : undefined;
  return (
    <SelectField
      id="monitor-parent"
      label="Depends on"
      hint="While it is down, this monitor’s alerts are held, not sent."
      value={value}
      onChange={onChange}
      disabled={!monitors.data}
      options={[{ value: '', label: 'Nothing' }, ...choices]}
      error={error ?? failed}
    />
  );
}
