import type { Page, PageMetaLink } from '@stagelink/core';
import { DEFAULT_PER_PAGE } from '@stagelink/core/protocol';

export interface PageRequest {
  page: number;
  perPage: number;
}

/** The simulator's largest page: the top of the spec's recommended range (the real maximum is not shown). */
export const MAX_PER_PAGE = 100;

export type PageRequestParse = { ok: true; request: PageRequest } | { ok: false; details: string };

/**
 * Reads `page` and `per_page` as Laravel does: a `page` that is not a whole number from 1 up means page 1;
 * a missing `per_page` means 15. A `per_page` that is not a whole number from 1 to 100 is refused.
 */
export function parsePageRequest(query: URLSearchParams): PageRequestParse {
  const page = wholeNumber(query.get('page'));
  const rawPerPage = query.get('per_page');
  const perPage = rawPerPage === null ? DEFAULT_PER_PAGE : wholeNumber(rawPerPage);
  if (perPage === undefined || perPage < 1 || perPage > MAX_PER_PAGE) {
    return { ok: false, details: `The per page field must be an integer between 1 and ${MAX_PER_PAGE}.` };
  }
  return { ok: true, request: { page: page !== undefined && page >= 1 ? page : 1, perPage } };
}

/**
 * One page of `items` in Laravel's resource-collection shape (docs/api-notes.md, "Cloud drive"): `from`/`to` are null
 * on an empty page, `last_page` is at least 1, a page past the end keeps its number with empty data, and
 * `per_page` appears in the links only when it is not the default. `path` is the endpoint URL without query.
 */
export function paginate<T>(items: readonly T[], { page, perPage }: PageRequest, path: string): Page<T> {
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const data = items.slice(start, start + perPage);
  const urlOf = (number: number): string => pageUrl(path, number, perPage);
  const prev = page > 1 ? urlOf(page - 1) : null;
  const next = page < lastPage ? urlOf(page + 1) : null;
  return {
    data,
    links: { first: urlOf(1), last: urlOf(lastPage), prev, next },
    meta: {
      current_page: page,
      from: data.length > 0 ? start + 1 : null,
      to: data.length > 0 ? start + data.length : null,
      last_page: lastPage,
      per_page: perPage,
      total,
      path,
      links: metaLinks({ page, lastPage, prev, next, urlOf }),
    },
  };
}

/** Laravel's order: the other query values first, then `page`. */
function pageUrl(path: string, page: number, perPage: number): string {
  return perPage === DEFAULT_PER_PAGE ? `${path}?page=${page}` : `${path}?per_page=${perPage}&page=${page}`;
}

interface MetaLinksInput {
  page: number;
  lastPage: number;
  prev: string | null;
  next: string | null;
  urlOf: (page: number) => string;
}

/**
 * Previous, one entry per page, Next. The labels are Laravel's HTML-escaped ones, which real drives answer with
 * instead of the spec's plain Previous/Next. Every page number is listed: Laravel's "..." gaps would be a label
 * that is neither Previous, Next nor a page number, which the spec does not allow.
 */
function metaLinks({ page, lastPage, prev, next, urlOf }: MetaLinksInput): PageMetaLink[] {
  const numbers = Array.from({ length: lastPage }, (_, index) => index + 1);
  return [
    { url: prev, label: '&laquo; Previous', active: false },
    ...numbers.map((number) => ({ url: urlOf(number), label: String(number), active: number === page })),
    { url: next, label: 'Next &raquo;', active: false },
  ];
}

function wholeNumber(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
