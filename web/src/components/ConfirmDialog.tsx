import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ProblemAlert } from './ProblemAlert';

/**
 * A modal confirmation for a destructive action. Cancel has the focus first, and closing gives it back to what opened
 * the dialog; a refusal from the API shows inside the dialog, which stays open so the person can read it.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** Does the action; throwing keeps the dialog open with the problem shown. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const textId = useId();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal() focuses the first button, the destructive one (React's autoFocus sets no attribute it would heed).
    cancelRef.current?.focus();
    return () => {
      dialog?.close();
      // A removed dialog leaves the focus nowhere: back to what opened it, if it is still there and nothing took it.
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && opener?.isConnected) opener.focus();
    };
  }, []);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={headingId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={headingId}>{title}</h2>
      <div id={textId}>{children}</div>
      <ProblemAlert error={error} />
      <div className="button-row">
        <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className="button button-secondary" onClick={onClose} ref={cancelRef}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
