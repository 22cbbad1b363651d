import { useState } from 'react';
import { SelectField, TextField } from '../components/Field';
import type { TrackedValueKind } from '../types';
import type { TrackedDraft } from './monitor-draft';

const KINDS: { value: TrackedValueKind; label: string }[] = [
  { value: 'price', label: 'Price' },
  { value: 'number', label: 'Number' },
  { value: 'text', label: 'Text' },
];

/** The monitor form's tracked values, a row each to add and remove; `apiField` is what the API said of a field. */
export function TrackedValueFields({
  tracked,
  onChange,
  apiField,
}: {
  tracked: TrackedDraft[];
  onChange: (tracked: TrackedDraft[]) => void;
  apiField: (field: string) => string | undefined;
}) {
  const [nextKey, setNextKey] = useState(tracked.length);
  const change = (key: number, update: Partial<TrackedDraft>) =>
    onChange(tracked.map((item) => (item.key === key ? { ...item, ...update } : item)));

  return (
    <fieldset className="field tracked-values">
      <legend>Tracked values</legend>
      <p className="hint">A price or figure read on every check; a move is recorded as a change.</p>
      {tracked.length === 0 ? <p className="muted small">No tracked values.</p> : null}
      <ol className="tracked-list">
        {tracked.map((item, index) => {
          const n = index + 1;
          const prefix = `tracked-${item.key}`;
          return (
            <li key={item.key} className="tracked-row">
              <TextField
                id={`${prefix}-name`}
                label={`Name of value ${n}`}
                required
                maxLength={100}
                value={item.name}
                onChange={(value) => change(item.key, { name: value })}
                error={apiField(`tracked_values[${index}].name`)}
              />
              <TextField
                id={`${prefix}-selector`}
                label={`Selector of value ${n}`}
                required
                maxLength={500}
                spellCheck={false}
                value={item.selector}
                onChange={(value) => change(item.key, { selector: value })}
                error={apiField(`tracked_values[${index}].selector`)}
              />
              <SelectField
                id={`${prefix}-kind`}
                label={`Kind of value ${n}`}
                value={item.kind}
                onChange={(value) => change(item.key, { kind: value })}
                options={KINDS}
                error={apiField(`tracked_values[${index}].kind`)}
              />
              <button
                type="button"
                className="button button-small button-danger-outline"
                onClick={() => onChange(tracked.filter((other) => other.key !== item.key))}
              >
                Remove value {n}
              </button>
            </li>
          );
        })}
      </ol>
      {apiField('tracked_values') ? <p className="field-error">{apiField('tracked_values')}</p> : null}
      <button
        type="button"
        className="button button-small button-secondary"
        onClick={() => {
          onChange([...tracked, { key: nextKey, name: '', selector: '', kind: 'price' }]);
          setNextKey(nextKey + 1);
        }}
      >
        Add a tracked value
      </button>
    </fieldset>
  );
}
