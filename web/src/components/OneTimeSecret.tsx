import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CopyField } from './CopyField';

/**
 * A secret the API returns only once (a new API key, a one-time password): it takes the focus when it appears, offers
 * a Copy button (selecting the value where the browser refuses the clipboard), and stays until the person says they
 * have it.
 */
export function OneTimeSecret({
  heading,
  warning,
  label,
  noun,
  secret,
  children,
  doneLabel,
  onDone,
}: {
  heading: ReactNode;
  /** Why to copy it now: the card's description. */
  warning: ReactNode;
  /** The field's label; the Copy button is named after it too. */
  label: string;
  /** What the copy-blocked message calls it ("the secret is selected"). */
  noun: string;
  secret: string;
  /** More about the secret, under the field. */
  children?: ReactNode;
  doneLabel: string;
  onDone: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  const headingId = useId();
  const warningId = useId();
  const inputId = useId();
  useEffect(() => ref.current?.focus(), []);

  return (
    <section
      className="card secret-card"
      aria-labelledby={headingId}
      aria-describedby={warningId}
      tabIndex={-1}
      ref={ref}
    >
      <h2 id={headingId}>{heading}</h2>
      <p id={warningId} className="alert alert-warning">
        {warning}
      </p>
      <CopyField id={inputId} label={label} value={secret} noun={noun} primary />
      {children}
      <button type="button" className="button button-secondary" onClick={onDone}>
        {doneLabel}
      </button>
    </section>
  );
}
