import { describe, expect, it } from 'vitest';
import { paginate, parsePageRequest } from '../src/drive/laravel-page.js';

const path = 'http://drive.test/v1/drives/d/content/c/versions';
const items = Array.from({ length: 40 }, (_, index) => index + 1);

describe('Laravel pages', () => {
  it('cuts the default page size of 15 and leaves per_page out of the links', () => {
    const page = paginate(items, { page: 2, perPage: 15 }, path);
    expect(page.data).toEqual(items.slice(15, 30));
    expect(page.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=3`, prev: `${path}?page=1`, next: `${path}?page=3` });
    expect(page.meta).toEqual({
      current_page: 2,
      from: 16,
      to: 30,
      last_page: 3,
      per_page: 15,
      total: 40,
      path,
      links: [
        { url: `${path}?page=1`, label: '&laquo; Previous', active: false },
        { url: `${path}?page=1`, label: '1', active: false },
        { url: `${path}?page=2`, label: '2', active: true },
        { url: `${path}?page=3`, label: '3', active: false },
        { url: `${path}?page=3`, label: 'Next &raquo;', active: false },
      ],
    });
  });

  it('writes any other per_page before the page number in every link', () => {
    const page = paginate(items, { page: 1, perPage: 10 }, path);
    expect(page.links).toEqual({ first: `${path}?per_page=10&page=1`, last: `${path}?per_page=10&page=4`, prev: null, next: `${path}?per_page=10&page=2` });
    expect(page.meta.links[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
  });

  it('ends with a short last page and no next link', () => {
    const page = paginate(items, { page: 3, perPage: 15 }, path);
    expect(page.data).toEqual(items.slice(30));
    expect(page.meta).toMatchObject({ from: 31, to: 40 });
    expect(page.links.next).toBeNull();
    expect(page.meta.links.at(-1)).toEqual({ url: null, label: 'Next &raquo;', active: false });
  });

  it('answers a page past the end with its number, empty data and null from/to', () => {
    const page = paginate(items, { page: 5, perPage: 15 }, path);
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 5, from: null, to: null, last_page: 3 });
    expect(page.links.prev).toBe(`${path}?page=4`);
    expect(page.links.next).toBeNull();
    expect(page.meta.links.some((link) => link.active)).toBe(false);
  });

  it('has one empty page when there are no items', () => {
    const page = paginate([], { page: 1, perPage: 15 }, path);
    expect(page.meta).toMatchObject({ current_page: 1, from: null, to: null, last_page: 1, total: 0 });
    expect(page.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null });
  });

  it('reads page and per_page as Laravel does', () => {
    expect(parsePageRequest(new URLSearchParams(''))).toEqual({ ok: true, request: { page: 1, perPage: 15 } });
    expect(parsePageRequest(new URLSearchParams('page=3&per_page=100'))).toEqual({ ok: true, request: { page: 3, perPage: 100 } });
    for (const page of ['0', '-2', 'abc', '1.5', '99999999999999999999']) {
      expect(parsePageRequest(new URLSearchParams({ page }))).toEqual({ ok: true, request: { page: 1, perPage: 15 } });
    }
  });

  it.each(['0', '101', 'ten', '', '2.5'])('refuses per_page=%s', (perPage) => {
    expect(parsePageRequest(new URLSearchParams({ per_page: perPage }))).toMatchObject({ ok: false });
  });
});
