import { afterEach, describe, expect, it } from 'vitest';
import { AbortedError, DriveClient, HttpError, InvalidInputError, type ListVersionsOptions } from '../src/index.js';
import { startPagingServer, type PagingScript } from './support/paging-server.js';

let server: Awaited<ReturnType<typeof startPagingServer>>;
let drive: DriveClient;

async function serve(script: PagingScript): Promise<void> {
  server = await startPagingServer(script);
  drive = new DriveClient({ baseUrl: server.url, token: 'test-token', retries: 0 });
}

afterEach(async () => {
  await drive.close();
  await server.close();
});

const asset = { driveId: 'd1', contentId: 'c1' };

function ids(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, index) => `item-${from + index}`);
}

async function listIds(options: Partial<ListVersionsOptions> = {}): Promise<string[]> {
  const listed: string[] = [];
  for await (const version of drive.versions.list({ ...asset, ...options })) listed.push(version.id);
  return listed;
}

describe('iterating the versions of an asset', () => {
  it('yields every version in page order even when later pages answer first', async () => {
    await serve({ total: 100, perPage: 10, delayMs: (page) => (11 - page) * 5 });
    expect(await listIds({ perPage: 10 })).toEqual(ids(1, 100));
    expect(server.requestedPages[0]).toBe(1);
    expect([...server.requestedPages].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('asks for the first page alone, then keeps 6 pages in flight', async () => {
    // Slow pages, so the client has time to fill its window even on a loaded machine; never more than 6.
    await serve({ total: 100, perPage: 10, delayMs: () => 150 });
    await listIds({ perPage: 10 });
    expect(server.maxInFlight).toBeGreaterThan(1);
    expect(server.maxInFlight).toBeLessThanOrEqual(6);
    expect(server.requestedPages.slice(0, 1)).toEqual([1]);
  });

  it('keeps no more pages in flight than the concurrency chosen', async () => {
    await serve({ total: 100, perPage: 10, delayMs: () => 150 });
    await listIds({ perPage: 10, concurrency: 3 });
    expect(server.maxInFlight).toBeGreaterThan(1);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
  });

  it('asks for one page at a time with concurrency 1', async () => {
    await serve({ total: 50, perPage: 10, delayMs: () => 5 });
    expect(await listIds({ perPage: 10, concurrency: 1 })).toEqual(ids(1, 50));
    expect(server.maxInFlight).toBe(1);
    expect(server.requestedPages).toEqual([1, 2, 3, 4, 5]);
  });

  it('yields each page with its meta in order from the chosen page on: what a progress display reads', async () => {
    await serve({ total: 95, perPage: 10, delayMs: (page) => (page % 2) * 10 });
    const progress: string[] = [];
    for await (const page of drive.versions.list({ ...asset, perPage: 10, page: 3 }).pages()) {
      progress.push(`${page.meta.current_page}/${page.meta.last_page}`);
    }
    expect(progress).toEqual(['3/10', '4/10', '5/10', '6/10', '7/10', '8/10', '9/10', '10/10']);
  });

  it('yields the pages before a failed one, then throws its error and cancels the requests made ahead', async () => {
    await serve({ total: 300, perPage: 10, delayMs: (page) => (page === 5 ? 0 : 40), failPage: (page) => (page === 5 ? 500 : undefined) });
    const listed: string[] = [];
    const error = await (async () => {
      for await (const version of drive.versions.list({ ...asset, perPage: 10 })) listed.push(version.id);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 500 });
    expect(listed).toEqual(ids(1, 40));
    // Pages 1 to 4 taken and at most 6 more in flight: nothing after the failure asked for more.
    expect(server.requestedPages.length).toBeLessThanOrEqual(10);
  });

  it('stops at the first empty page when versions were deleted after last_page was read', async () => {
    await serve({ total: 30, perPage: 10, lastPageOf: () => 20 });
    expect(await listIds({ perPage: 10 })).toEqual(ids(1, 30));
    expect(Math.max(...server.requestedPages)).toBeLessThanOrEqual(10);
  });

  it('cancels the requests made ahead when the loop is left early', async () => {
    await serve({ total: 100, perPage: 10, delayMs: (page) => (page === 1 ? 0 : 60_000) });
    for await (const page of drive.versions.list({ ...asset, perPage: 10 }).pages()) {
      expect(page.meta.current_page).toBe(1);
      break;
    }
    // Closing the pool waits for requests in flight: pages 2 to 5 would keep it open for a minute.
    const closing = performance.now();
    await drive.close();
    expect(performance.now() - closing).toBeLessThan(2000);
  });

  it('stops with AbortedError when the caller aborts between pages', async () => {
    await serve({ total: 100, perPage: 10, delayMs: () => 20 });
    const caller = new AbortController();
    const listed: string[] = [];
    const error = await (async () => {
      for await (const version of drive.versions.list({ ...asset, perPage: 10, signal: caller.signal })) {
        listed.push(version.id);
        if (listed.length === 10) caller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    expect(listed).toEqual(ids(1, 10));
  });

  it.each([0, 2.5, -1])('refuses concurrency %s before sending anything', async (concurrency) => {
    await serve({ total: 10, perPage: 10 });
    await expect(listIds({ concurrency })).rejects.toBeInstanceOf(InvalidInputError);
    expect(server.requestedPages).toEqual([]);
  });
});
