import type { ReactNode } from 'react';
import { Link } from '../router';

/** Where a page sits: links up the `trail`, then the page itself once it is known (`null` while loading). */
export function Breadcrumb({
  trail,
  current,
}: {
  trail: { to: string; label: ReactNode }[];
  current: ReactNode | null;
}) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {trail.map((step) => (
          <li key={step.to}>
            <Link to={step.to}>{step.label}</Link>
          </li>
        ))}
        {current !== null ? (
          <li>
            <span aria-current="page">{current}</span>
          </li>
        ) : null}
      </ol>
    </nav>
  );
}
