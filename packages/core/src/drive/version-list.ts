import type { RequestOptions } from '../http/request-options.js';
import { isPage, unexpectedAnswer } from './answers.js';
import type { DriveCaller } from './drive-caller.js';
import { firstPageNumber, nextPageNumber, pageConcurrency, perPageQuery } from './pagination.js';
import { versionsPath, type ContentRef } from './paths.js';
import type { Version, VersionPage } from './types.js';

export interface ListVersionsOptions extends ContentRef, RequestOptions {
  /** The page `page()` reads and iteration starts from (default 1). */
  page?: number;
  /** Page size; the server uses 15 when it is left out. The spec recommends 10 to 100. */
  perPage?: number;
  /**
   * Pages an iteration requests at once once the first page has told how many there are (default 6). 1 asks for
   * one page at a time, for a server that must not see parallel requests.
   */
  concurrency?: number;
}

/**
 * The versions of one asset. Iterate it (`for await`) for every version of every page, or call `page()` for one
 * page with its links and meta. Nothing is sent until then. An iteration asks for the first page alone; once it
 * knows `last_page` it keeps up to `concurrency` pages in flight ahead of the consumer, and still yields pages
 * and versions strictly in order. `signal` and `timeoutMs` apply to each request. Leaving the loop early, or a
 * failed page, cancels the requests still in flight. Pages are offsets: versions added or deleted during an
 * iteration can shift items between pages.
 */
export class VersionList implements AsyncIterable<Version> {
  readonly #caller: DriveCaller;
  readonly #options: ListVersionsOptions;

  constructor(caller: DriveCaller, options: ListVersionsOptions) {
    this.#caller = caller;
    this.#options = options;
  }

  /** One page (number `page`, default 1) with its links and meta. A page past the end has empty data. */
  async page(): Promise<VersionPage> {
    return this.#fetch(firstPageNumber(this.#options.page), this.#options.signal);
  }

  /** Every page from `page` on, in order: what a progress display ("page 3/12") reads. */
  async *pages(): AsyncGenerator<VersionPage, void, undefined> {
    const start = firstPageNumber(this.#options.page);
    const fetch = (number: number, signal: AbortSignal): Promise<VersionPage> => this.#fetch(number, signal);
    const ahead = new PagesAhead(start, pageConcurrency(this.#options.concurrency), this.#options.signal, fetch);
    try {
      for (let number = start; ; number++) {
        const page = await ahead.take(number);
        const next = nextPageNumber(number, page);
        // Request the following pages before handing this one over, so they load while it is used.
        if (next !== undefined) ahead.knowLastPage(page.meta.last_page);
        yield page;
        if (next === undefined) return;
      }
    } finally {
      ahead.cancel();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Version, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  async #fetch(pageNumber: number, signal: AbortSignal | undefined): Promise<VersionPage> {
    const { driveId, contentId, timeoutMs, perPage } = this.#options;
    const ref = { driveId, contentId };
    const response = await this.#caller.send({
      method: 'GET',
      path: versionsPath(ref),
      ids: ref,
      query: { page: pageNumber, per_page: perPageQuery(perPage) },
      signal,
      timeoutMs,
    });
    if (!isPage(response.body)) throw unexpectedAnswer(response.context, 'a page of versions');
    return response.body as VersionPage;
  }
}

/**
 * The requests of one iteration: pages by number, at most `concurrency` in flight, none past the last page known.
 * A request made ahead may fail before its page is wanted: its rejection is held until `take` asks for it, so it
 * is never unhandled.
 */
class PagesAhead {
  readonly #requested = new Map<number, Promise<VersionPage>>();
  readonly #cancel = new AbortController();
  readonly #signal: AbortSignal;
  #nextToRequest: number;
  #lastPage = 0;

  constructor(
    start: number,
    private readonly concurrency: number,
    callerSignal: AbortSignal | undefined,
    private readonly fetch: (pageNumber: number, signal: AbortSignal) => Promise<VersionPage>,
  ) {
    this.#nextToRequest = start;
    this.#signal = callerSignal ? AbortSignal.any([callerSignal, this.#cancel.signal]) : this.#cancel.signal;
  }

  /** Page `number` (the one after the page taken before), requested now unless it already was. */
  take(number: number): Promise<VersionPage> {
    // The wanted page is always requested, even before any last_page is known.
    this.#lastPage = Math.max(this.#lastPage, number);
    this.#fill();
    const page = this.#requested.get(number) as Promise<VersionPage>;
    this.#requested.delete(number);
    return page;
  }

  /** The `last_page` of the latest page taken: pages up to it are requested, `concurrency` at a time. */
  knowLastPage(lastPage: number): void {
    this.#lastPage = lastPage;
    this.#fill();
  }

  /** Aborts the requests still in flight; their pages are no longer wanted. */
  cancel(): void {
    this.#cancel.abort();
  }

  #fill(): void {
    while (this.#requested.size < this.concurrency && this.#nextToRequest <= this.#lastPage) {
      const number = this.#nextToRequest++;
      const page = this.fetch(number, this.#signal);
      page.catch(() => undefined);
      this.#requested.set(number, page);
    }
  }
}
