import { useCallback, useEffect, useEffectEvent, useState } from 'react';

export interface Resource<T> {
  /** The last data loaded; kept while a newer request (another page, a reload) is under way. */
  data: T | null;
  /** Why the last request failed; cleared by the next one that succeeds. */
  error: unknown;
  /** A request is under way (the first one, or one for another key, or a reload). */
  loading: boolean;
  /** Loads again with the same key, keeping what is shown meanwhile (polling, after a change). */
  reload: () => void;
  /** Changes the data shown without a request (an update the API already answered with). */
  mutate: (update: (data: T) => T) => void;
}

interface Settled<T> {
  request: string;
  data: T | null;
  error: unknown;
}

/**
 * Loads data for a component: `inputs` are what `load` depends on (an id, a page, a filter), compared by value, and
 * `load` fetches with the signal it is given. New inputs abort the request in flight and start another; `null` loads
 * nothing. Whether it is loading is derived from which request the result belongs to, so no state is set
 * synchronously in an effect. A single GET is better loaded with `useApi`, which derives the inputs from the call.
 */
export function useResource<T>(inputs: unknown, load: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const [version, setVersion] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const fetchLatest = useEffectEvent((signal: AbortSignal) => load(signal));
  const request = inputs === null ? null : `${version}\u0000${stableKey(inputs)}`;

  useEffect(() => {
    if (request === null) return;
    const controller = new AbortController();
    fetchLatest(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setSettled({ request, data, error: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setSettled((last) => ({ request, data: last?.data ?? null, error }));
      },
    );
    return () => controller.abort();
  }, [request]);

  const reload = useCallback(() => setVersion((current) => current + 1), []);
  const mutate = useCallback(
    (update: (data: T) => T) =>
      setSettled((last) => (last && last.data !== null ? { ...last, data: update(last.data) } : last)),
    [],
  );

  return {
    data: settled?.data ?? null,
    error: settled?.error ?? null,
    loading: request !== null && settled?.request !== request,
    reload,
    mutate,
  };
}

/** JSON with every object's keys sorted, so equal inputs make one key whatever order they were written in. */
function stableKey(value: unknown): string {
  return JSON.stringify(value, (_name, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** Reloads a resource every `ms` while `active` and the tab is visible (collection, a scan in progress). */
export function usePolling(active: boolean, ms: number, reload: () => void): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms, reload]);
}
