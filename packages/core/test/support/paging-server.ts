import { createServer } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { listenOnLoopback } from './loopback.js';

export interface PagingScript {
  /** Items on the server, listed as ids `item-1`, `item-2`, ... */
  total: number;
  perPage: number;
  /** How long page `n` takes to answer; later pages answering first shows whether the client keeps order. */
  delayMs?: (page: number) => number;
  /** An HTTP status to answer page `n` with instead of the page. */
  failPage?: (page: number) => number | undefined;
  /** The `last_page` page `n` reports, when it should differ from the real one (items deleted meanwhile). */
  lastPageOf?: (page: number) => number;
}

/**
 * A real HTTP server answering `?page=N` in the drive's pagination shape (only what the client reads), recording
 * the pages asked for and the most requests it had in flight at once.
 */
export async function startPagingServer(script: PagingScript) {
  const requestedPages: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const closed = new AbortController();
  const server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://paging.test').searchParams.get('page'));
    requestedPages.push(page);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    delay(script.delayMs?.(page) ?? 0, undefined, { signal: closed.signal })
      .then(() => {
        const failure = script.failPage?.(page);
        res.writeHead(failure ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(failure ? { error: { message: 'Injected', details: 'Injected' } } : pageBody(script, page)));
      })
      .catch(() => res.destroy())
      .finally(() => inFlight--);
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    requestedPages,
    get maxInFlight() {
      return maxInFlight;
    },
    async close() {
      closed.abort();
      await listening.close();
    },
  };
}

function pageBody({ total, perPage, lastPageOf }: PagingScript, page: number) {
  const realLastPage = Math.max(1, Math.ceil(total / perPage));
  const first = (page - 1) * perPage + 1;
  const count = Math.max(0, Math.min(perPage, total - first + 1));
  const data = Array.from({ length: count }, (_, index) => ({ id: `item-${first + index}`, is_active: false }));
  return {
    data,
    links: { first: '', last: '', prev: null, next: null },
    meta: { current_page: page, last_page: lastPageOf?.(page) ?? realLastPage, per_page: perPage, total, links: [] },
  };
}
