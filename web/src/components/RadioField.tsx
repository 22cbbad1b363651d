import type { ReactNode } from 'react';

/** One choice of a RadioField: its value, its label, and what choosing it means. */
export interface RadioOption<V extends string> {
  value: V;
  label: string;
  hint: ReactNode;
}

/**
 * A fieldset of radio buttons, each with its label and a hint read with it, and the API's error for the field under
 * them. `name` also makes the inputs' ids (`{name}-{value}`).
 */
export function RadioField<V extends string>({
  legend,
  name,
  value,
  onChange,
  options,
  error,
}: {
  legend: string;
  name: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly RadioOption<V>[];
  error?: string;
}) {
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      <ul className="scope-options">
        {options.map((option) => {
          const id = `${name}-${option.value}`;
          return (
            <li key={option.value} className="check">
              <input
                id={id}
                type="radio"
                name={name}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                aria-describedby={`${id}-grants`}
              />
              <label htmlFor={id}>{option.label}</label>
              <span id={`${id}-grants`} className="scope-grants">
                {option.hint}
              </span>
            </li>
          );
        })}
      </ul>
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
