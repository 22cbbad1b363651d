import { type FormEvent, useState } from 'react';

/**
 * The submit handling forms share: the page does not reload, the last refusal is cleared, `check` may stop a submit
 * it finds incomplete (showing its own messages), `confirm` may ask first (calling `proceed` once the person agrees:
 * the drift warning of a managed resource), and `send` runs with the form busy; what it throws is kept in `error` for
 * the form to show.
 */
export function useSubmit({
  check,
  confirm,
  send,
}: {
  check?: () => boolean;
  confirm?: (proceed: () => void) => void;
  send: () => Promise<void>;
}): {
  busy: boolean;
  error: unknown;
  onSubmit: (event: FormEvent) => void;
} {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  function submit() {
    setError(null);
    if (check && !check()) return;
    if (confirm) confirm(() => void run());
    else void run();
  }

  async function run() {
    setBusy(true);
    try {
      await send();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    error,
    onSubmit: (event) => {
      event.preventDefault();
      submit();
    },
  };
}
