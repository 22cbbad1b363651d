import type { ReactNode } from 'react';
import type { Resource } from '../hooks/useResource';
import type { Pagination as PaginationInfo } from '../types';
import { Pagination } from './Pagination';
import { ProblemAlert } from './ProblemAlert';

/**
 * What a loaded resource shows: its problem, "Loading…" until the first data arrives, then the data. Data already
 * shown stays while a newer request (another page, a refresh) is under way.
 */
export function ResourceView<T>({
  resource,
  loadingText,
  errorTitle,
  children,
}: {
  resource: Pick<Resource<T>, 'data' | 'error' | 'loading'>;
  loadingText: string;
  errorTitle?: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      <ProblemAlert error={resource.error} title={errorTitle} />
      {resource.data === null && resource.loading ? (
        <p className="loading" role="status">
          {loadingText}
        </p>
      ) : null}
      {resource.data !== null ? children(resource.data) : null}
    </>
  );
}

/** A page of a list (`{data, pagination}`): its problem, loading, what to say when it is empty, the items, pages. */
export function PagedList<T>({
  resource,
  loadingText,
  empty,
  pagesLabel,
  onPage,
  children,
}: {
  resource: Pick<Resource<{ data: T[]; pagination: PaginationInfo }>, 'data' | 'error' | 'loading'>;
  loadingText: string;
  empty: ReactNode;
  /** Names the pagination's navigation landmark ("Monitor pages"). */
  pagesLabel: string;
  onPage: (page: number) => void;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <ResourceView resource={resource} loadingText={loadingText}>
      {(list) => (
        <>
          {list.data.length === 0 ? empty : children(list.data)}
          <Pagination pagination={list.pagination} onPage={onPage} label={pagesLabel} />
        </>
      )}
    </ResourceView>
  );
}
