import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { IntField } from '../validation/fields';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** The query class of a list whose pages hold at most `maxPerPage` items (100 for most lists, 500 for monitors). */
export function PageQueryOf(maxPerPage: number, perPageDescription = 'Items per page.') {
  class PageQueryDto {
    @IntField({ optional: true, min: 1, max: 1_000_000, default: 1, description: '1-based page number.' })
    page: number = 1;

    @IntField({ optional: true, min: 1, max: maxPerPage, default: DEFAULT_PER_PAGE, description: perPageDescription })
    per_page: number = DEFAULT_PER_PAGE;
  }
  return PageQueryDto;
}

/** `page` and `per_page` (default 20, at most 100). */
export class PageQuery extends PageQueryOf(MAX_PER_PAGE) {}

export class PaginationDto {
  @ApiProperty({ type: 'integer' })
  page: number;

  @ApiProperty({ type: 'integer' })
  per_page: number;

  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  total_pages: number;
}

export interface Page<T> {
  data: T[];
  pagination: PaginationDto;
}

/** The response class of a list of `item`, named for the contract (e.g. `ApiKeyList`). */
export function PageOf<T>(item: Type<T>, name: string): Type<Page<T>> {
  class PageDto implements Page<T> {
    @ApiProperty({ type: () => [item] })
    data: T[];

    @ApiProperty({ type: () => PaginationDto })
    pagination: PaginationDto;
  }
  Object.defineProperty(PageDto, 'name', { value: name });
  return PageDto;
}

export function pageOf<T>(data: T[], total: number, query: PageQuery): Page<T> {
  return {
    data,
    pagination: {
      page: query.page,
      per_page: query.per_page,
      total,
      total_pages: Math.ceil(total / query.per_page),
    },
  };
}

/** Offset and limit for a query. */
export function pageWindow(query: PageQuery): { offset: number; limit: number } {
  return { offset: (query.page - 1) * query.per_page, limit: query.per_page };
}

/** Sets an RFC 8288 `Link` header with `next` and `prev` relative to the request's own URL. */
export function setLinkHeader(request: Request, response: Response, page: Page<unknown>): void {
  const { page: current, total_pages: last } = page.pagination;
  const link = (target: number, rel: string): string => {
    const url = new URL(request.originalUrl, 'http://placeholder');
    url.searchParams.set('page', String(target));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (current < last) links.push(link(current + 1, 'next'));
  if (current > 1) links.push(link(Math.min(current - 1, Math.max(last, 1)), 'prev'));
  // Appended: a deprecated-alias response carries a successor-version link already.
  if (links.length) response.append('Link', links.join(', '));
}
