import type { ReactNode } from 'react';
import { Link } from '../router';
import type { Monitor } from '../types';

/**
 * A fieldset of the workspace's monitors with a checkbox each (a status page's component, a report): the legend names
 * what they are chosen for, the hint says what none ticked means, and the API's error about them is read with it.
 */
export function MonitorPicker({
  id,
  legend,
  hint,
  monitors,
  selected,
  onChange,
  error,
}: {
  /** Prefixes the ids of the checkboxes, the hint and the error. */
  id: string;
  legend: ReactNode;
  hint?: ReactNode;
  monitors: readonly Monitor[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  error?: string | null;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  // Kept in the monitors' order, whatever order they were ticked in.
  const toggle = (monitorId: string, pick: boolean) =>
    onChange(
      monitors
        .map((monitor) => monitor.id)
        .filter((candidate) => (candidate === monitorId ? pick : selected.includes(candidate))),
    );

  return (
    <fieldset className="field monitor-picker" aria-describedby={described || undefined}>
      <legend>{legend}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {monitors.length === 0 ? (
        <p className="muted small">
          This workspace has no monitors yet. <Link to="/monitors/new">Add a monitor</Link> first.
        </p>
      ) : (
        <ul className="scope-options monitor-options">
          {monitors.map((monitor) => {
            const checkId = `${id}-${monitor.id}`;
            return (
              <li key={monitor.id} className="check">
                <input
                  id={checkId}
                  type="checkbox"
                  checked={selected.includes(monitor.id)}
                  onChange={(event) => toggle(monitor.id, event.target.checked)}
                  aria-describedby={`${checkId}-url`}
                />
                <label htmlFor={checkId}>{monitor.name}</label>
                <span id={`${checkId}-url`} className="scope-grants url">
                  {monitor.url ?? 'Heartbeat'}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
