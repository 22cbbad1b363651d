import type { Pagination as PaginationInfo } from '../types';

export function Pagination({
  pagination,
  onPage,
  label,
}: {
  pagination: PaginationInfo;
  onPage: (page: number) => void;
  label: string;
}) {
  const { page, total_pages: totalPages, total } = pagination;
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="button button-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous<span className="visually-hidden"> page</span>
      </button>
      <span className="pagination-status" aria-live="polite">
        Page {page} of {totalPages} <span className="muted">({total} in all)</span>
      </span>
      <button
        type="button"
        className="button button-secondary"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        Next<span className="visually-hidden"> page</span>
      </button>
    </nav>
  );
}
