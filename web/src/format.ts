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
