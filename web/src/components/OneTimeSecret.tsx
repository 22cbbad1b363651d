import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

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
  const [copied, setCopied] = useState<string | null>(null);
  const ref = useRef<HTMLElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const warningId = useId();
  const inputId = useId();
  useEffect(() => ref.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      inputRef.current?.select();
      setCopied(`Copying was blocked: the ${noun} is selected, press Ctrl+C (or ⌘C) to copy it.`);
    }
  }

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
      <div className="field">
        <label htmlFor={inputId}>{label}</label>
        <div className="secret-row">
          <input
            id={inputId}
            ref={inputRef}
            className="secret-value"
            type="text"
            readOnly
            value={secret}
            onFocus={(event) => event.target.select()}
            spellCheck={false}
            autoComplete="off"
          />
          <button type="button" className="button button-primary" onClick={() => void copy()}>
            Copy<span className="visually-hidden"> {label.toLowerCase()}</span>
          </button>
        </div>
        <p className="hint" role="status">
          {copied ?? ''}
        </p>
      </div>
      {children}
      <button type="button" className="button button-secondary" onClick={onDone}>
        {doneLabel}
      </button>
    </section>
  );
}
