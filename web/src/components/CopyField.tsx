import { useRef, useState } from 'react';

/** A read-only value with a Copy button; where the browser refuses the clipboard, the value is selected instead. */
export function CopyField({
  id,
  label,
  value,
  noun = 'text',
  primary = false,
}: {
  id: string;
  /** The field's label; the Copy button is named after it too. */
  label: string;
  value: string;
  /** What the copy-blocked message calls the value ("the text is selected"). */
  noun?: string;
  /** A primary button, for a value that must be copied now (a secret shown once). */
  primary?: boolean;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied to the clipboard.');
    } catch {
      inputRef.current?.select();
      setCopied(`Copying was blocked: the ${noun} is selected, press Ctrl+C (or ⌘C) to copy it.`);
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input
          id={id}
          ref={inputRef}
          className="secret-value"
          type="text"
          readOnly
          value={value}
          onFocus={(event) => event.target.select()}
          spellCheck={false}
          autoComplete="off"
        />
        <button
          type="button"
          className={`button ${primary ? 'button-primary' : 'button-secondary'}`}
          onClick={() => void copy()}
        >
          Copy<span className="visually-hidden"> {label.toLowerCase()}</span>
        </button>
      </div>
      <p className="hint" role="status">
        {copied ?? ''}
      </p>
    </div>
  );
}
