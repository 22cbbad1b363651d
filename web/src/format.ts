const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}

export function formatPercent(ratio: number): string {
  if (ratio === 0) return '0%';
  if (ratio < 0.0001) return '< 0.01%';
  return `${(ratio * 100).toFixed(2)}%`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export const VIEWPORT_LABEL = { desktop: 'desktop (1440 × 900)', mobile: 'mobile (390 × 844)' } as const;

/** An uptime percentage from the API (0–100), or "no checks" when the window had none. */
export function formatUptime(percent: number | null | undefined): string {
  if (percent === null || percent === undefined) return 'no checks';
  if (percent === 100) return '100%';
  return `${percent.toFixed(2)}%`;
}

export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms < 10 && !Number.isInteger(ms) ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

export function formatInterval(seconds: number): string {
  if (seconds % 3600 === 0) return plural(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return plural(seconds, 'second');
}

/** A file's size: bytes below 1 kB, then kB and MB (powers of 1000, as browsers show downloads). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return plural(bytes, 'byte');
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
