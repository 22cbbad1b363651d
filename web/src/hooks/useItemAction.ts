import { useState } from 'react';

/**
 * The actions of one list item (send a test, enable or disable, …), one at a time: which one runs, and why the last
 * one failed, under a title that says what did not happen.
 */
export function useItemAction<A extends string>() {
  const [busy, setBusy] = useState<A | null>(null);
  const [error, setError] = useState<{ title: string; error: unknown } | null>(null);

  async function run(action: A, failureTitle: string, work: () => Promise<void>): Promise<void> {
    setBusy(action);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError({ title: failureTitle, error: caught });
    } finally {
      setBusy(null);
    }
  }

  return { busy, error, run };
}
