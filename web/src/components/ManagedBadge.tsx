import { Badge } from './Badge';

/**
 * Marks a resource managed by a declaration (monitoring as code), with its key: `declaration: shop`. Nothing for one
 * managed by hand. Screen readers hear what the short label means; the title says it on hover.
 */
export function ManagedBadge({ declarationKey }: { declarationKey: string | null }) {
  if (declarationKey === null) return null;
  return (
    <Badge
      tone="managed"
      title={`Managed by a declaration (key “${declarationKey}”): changes belong in the file. A change made here is drift, reverted by the next apply.`}
    >
      <span aria-hidden="true">declaration: {declarationKey}</span>{' '}
      <span className="visually-hidden">Managed by a declaration (key {declarationKey}): change it in the file.</span>
    </Badge>
  );
}
