import { useRef, useState } from 'react';
import { ProblemError } from '../api';
import { TextField } from '../components/Field';
import { MonitorPicker } from '../components/MonitorPicker';
import { fieldError } from '../components/ProblemAlert';
import type { Monitor } from '../types';
import { type ComponentDraft, emptyComponent } from './StatusPageBits';

/** The API's message about the list itself (too many components), not about one of them. */
function listError(error: unknown): string | undefined {
  if (!(error instanceof ProblemError) || !Array.isArray(error.problem.errors)) return undefined;
  return error.problem.errors.find((item) => item.field === 'components')?.message;
}

/**
 * The components of a status page, each a name and the monitors whose checks make up its status: add, name, choose
 * monitors, remove. The API's errors show at the component they name (`components[1].name`).
 */
export function ComponentsEditor({
  idPrefix,
  drafts,
  onChange,
  monitors,
  local,
  error,
}: {
  idPrefix: string;
  drafts: readonly ComponentDraft[];
  onChange: (drafts: ComponentDraft[]) => void;
  monitors: readonly Monitor[];
  /** The form's own messages, by draft key. */
  local: Record<string, string>;
  error: unknown;
}) {
  const addRef = useRef<HTMLButtonElement>(null);
  // The component just added takes the focus, so a keyboard user names it next.
  const [added, setAdded] = useState<string | null>(null);
  const change = (key: string, update: Partial<ComponentDraft>) =>
    onChange(drafts.map((draft) => (draft.key === key ? { ...draft, ...update } : draft)));
  const overall = listError(error);

  return (
    <fieldset className="field components-editor" aria-describedby={`${idPrefix}-components-hint`}>
      <legend>Components</legend>
      <p id={`${idPrefix}-components-hint`} className="hint">
        What the public sees, in this order: each component has a name and the monitors whose checks make up its status
        and 90 days of uptime. Monitor names and addresses are never shown.
      </p>
      {drafts.length === 0 ? <p className="muted small">No components yet: the page shows only incidents.</p> : null}
      <ol className="component-drafts">
        {drafts.map((draft, index) => {
          const number = index + 1;
          const id = `${idPrefix}-component-${draft.key}`;
          const title = draft.name.trim() ? `Component ${number}: ${draft.name.trim()}` : `Component ${number}`;
          return (
            <li key={draft.key} className="component-draft" data-component-index={index}>
              <fieldset className="component-fieldset">
                <legend>{title}</legend>
                <TextField
                  id={`${id}-name`}
                  label="Component name"
                  required
                  maxLength={100}
                  autoFocus={added === draft.key}
                  value={draft.name}
                  onChange={(name) => change(draft.key, { name })}
                  error={
                    local[draft.key] ??
                    fieldError(error, `components[${index}].name`) ??
                    fieldError(error, `components[${index}].id`)
                  }
                />
                <MonitorPicker
                  id={`${id}-monitors`}
                  legend={`Monitors of ${draft.name.trim() || `component ${number}`}`}
                  hint="Its status is the worst of these monitors’; its uptime counts all their checks."
                  monitors={monitors}
                  selected={draft.monitorIds}
                  onChange={(monitorIds) => change(draft.key, { monitorIds })}
                  error={fieldError(error, `components[${index}].monitor_ids`)}
                />
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  onClick={() => {
                    onChange(drafts.filter((item) => item.key !== draft.key));
                    addRef.current?.focus();
                  }}
                >
                  Remove<span className="visually-hidden"> {title}</span>
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {overall ? <p className="field-error">{overall}</p> : null}
      <button
        type="button"
        ref={addRef}
        className="button button-small button-secondary"
        onClick={() => {
          const next = emptyComponent();
          setAdded(next.key);
          onChange([...drafts, next]);
        }}
      >
        Add a component
      </button>
    </fieldset>
  );
}
