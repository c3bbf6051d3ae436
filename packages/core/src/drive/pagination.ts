import { InvalidInputError } from '../errors.js';
import type { Page } from './types.js';

/**
 * Page maths of the client. Pages are always requested by number: `links` and `meta.links` are never followed,
 * because their labels and query strings differ between servers (docs/api-notes.md, "Cloud drive").
 */

/** The page number to ask for: 1 unless the caller chose one. */
export function firstPageNumber(page: number | undefined): number {
  if (page === undefined) return 1;
  if (!Number.isInteger(page) || page < 1) {
    throw new InvalidInputError(`page must be a whole number from 1 up, not ${String(page)}.`);
  }
  return page;
}

/**
 * The `per_page` query value, or undefined to let the server use its default of 15. Any
 * positive whole number is sent: the spec only recommends 10 to 100 and does not show the server's maximum.
 */
export function perPageQuery(perPage: number | undefined): number | undefined {
  if (perPage === undefined) return undefined;
  if (!Number.isInteger(perPage) || perPage < 1) {
    throw new InvalidInputError(`perPage must be a whole number from 1 up (10 to 100 recommended), not ${String(perPage)}.`);
  }
  return perPage;
}

/**
 * Pages requested at once when iterating, once the first page has told how many there are: as many connections
 * as a browser opens to one host. Enough for a 5,000-version listing over a 20 ms link to take a quarter of the
 * time of one page at a time (`pnpm bench drive-listing`).
 */
export const DEFAULT_PAGE_CONCURRENCY = 6;

/** How many pages an iteration may have in flight: `DEFAULT_PAGE_CONCURRENCY` unless the caller chose. */
export function pageConcurrency(concurrency: number | undefined): number {
  if (concurrency === undefined) return DEFAULT_PAGE_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidInputError(`concurrency must be a whole number from 1 up (1 asks for one page at a time), not ${String(concurrency)}.`);
  }
  return concurrency;
}

/**
 * The page to ask for after `requested`, or undefined when there is none. Uses the number we asked for, not the
 * one the server echoes, so a server that repeats a page number cannot keep the iteration going forever. An empty
 * page ends it too: a page past the end answers with empty data (docs/api-notes.md, "Cloud drive").
 */
export function nextPageNumber(requested: number, page: Page<unknown>): number | undefined {
  if (page.data.length === 0 || requested >= page.meta.last_page) return undefined;
  return requested + 1;
}
