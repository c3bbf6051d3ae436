import type { CallOptions } from '../media-server/endpoint-caller.js';
import { isPage, unexpectedAnswer } from './answers.js';
import type { DriveCaller } from './drive-caller.js';
import { firstPageNumber, nextPageNumber, perPageQuery } from './pagination.js';
import { versionsPath, type ContentRef } from './paths.js';
import type { Version, VersionPage } from './types.js';

export interface ListVersionsOptions extends ContentRef, CallOptions {
  /** The page `page()` reads and iteration starts from (default 1). */
  page?: number;
  /** Page size; the server uses 15 when it is left out. The spec recommends 10 to 100. */
  perPage?: number;
}

/**
 * The versions of one asset. Iterate it (`for await`) for every version of every page, or call `page()` for one
 * page with its links and meta. Nothing is sent until then; each page is requested when the previous one has been
 * used up. `signal` and `timeoutMs` apply to each request. Pages are offsets: versions added or deleted during an
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
    return this.#fetch(firstPageNumber(this.#options.page));
  }

  /** Every page from `page` on, in order: what a progress display ("page 3/12") reads. */
  async *pages(): AsyncGenerator<VersionPage, void, undefined> {
    let pageNumber = firstPageNumber(this.#options.page);
    for (;;) {
      const page = await this.#fetch(pageNumber);
      yield page;
      const next = nextPageNumber(pageNumber, page);
      if (next === undefined) return;
      pageNumber = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Version, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  async #fetch(pageNumber: number): Promise<VersionPage> {
    const { signal, timeoutMs, perPage, ...ref } = this.#options;
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
