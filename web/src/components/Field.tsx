import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

/** What a form control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
  required: boolean | undefined;
}

export interface FieldProps {
  id: string;
  label: ReactNode;
  /** Shown under the label and read with the control. */
  hint?: ReactNode;
  /** The problem with the value (the form's own check, or the API's field error), shown under the control. */
  error?: string | null;
  required?: boolean;
  /** Marks the label "(optional)". */
  optional?: boolean;
  /** Marks the label "(required)". */
  markRequired?: boolean;
  className?: string;
}

/**
 * One labelled form field: label, hint, the control, and its error, with `aria-invalid` and `aria-describedby` set
 * so the hint and the error are read with the control.
 */
export function Field({
  id,
  label,
  hint,
  error,
  required,
  optional,
  markRequired,
  className,
  children,
}: FieldProps & { children: (control: ControlProps) => ReactNode }) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>
        {label}
        {optional ? (
          <>
            {' '}
            <span className="optional">(optional)</span>
          </>
        ) : null}
        {markRequired ? (
          <>
            {' '}
            <span className="required">(required)</span>
          </>
        ) : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described || undefined,
        'aria-required': required ? true : undefined,
        required,
      })}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type Own = 'id' | 'value' | 'onChange' | 'required';

export function TextField({
  value,
  onChange,
  type = 'text',
  ...props
}: FieldProps & { value: string; onChange: (value: string) => void } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    Own | 'className'
  >) {
  const { field, rest } = split(props);
  return (
    <Field {...field}>
      {(control) => (
        <input {...rest} {...control} type={type} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </Field>
  );
}

export function TextAreaField({
  value,
  onChange,
  ...props
}: FieldProps & { value: string; onChange: (value: string) => void } & Omit<
    TextareaHTMLAttributes<HTMLTextAreaElement>,
    Own | 'className'
  >) {
  const { field, rest } = split(props);
  return (
    <Field {...field}>
      {(control) => (
        <textarea {...rest} {...control} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </Field>
  );
}

export function SelectField<V extends string>({
  value,
  onChange,
  options,
  ...props
}: FieldProps & {
  value: V;
  onChange: (value: V) => void;
  options: readonly { value: V; label: string }[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, Own | 'className'>) {
  const { field, rest } = split(props);
  return (
    <Field {...field}>
      {(control) => (
        <select {...rest} {...control} value={value} onChange={(event) => onChange(event.target.value as V)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function split<R extends object>(props: FieldProps & R): { field: FieldProps; rest: Omit<R, keyof FieldProps> } {
  const { id, label, hint, error, required, optional, markRequired, className, ...rest } = props;
  return { field: { id, label, hint, error, required, optional, markRequired, className }, rest };
}
