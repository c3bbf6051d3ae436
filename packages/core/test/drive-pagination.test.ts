import { describe, expect, it } from 'vitest';
import { InvalidInputError, type Page } from '../src/index.js';
import { DEFAULT_PAGE_CONCURRENCY, firstPageNumber, nextPageNumber, pageConcurrency, perPageQuery } from '../src/drive/pagination.js';

function pageOf(itemCount: number, lastPage: number): Page<number> {
  return {
    data: Array.from({ length: itemCount }, (_, index) => index),
    links: { first: '', last: '', prev: null, next: null },
    meta: { current_page: 0, from: null, to: null, last_page: lastPage, per_page: 15, total: 0, path: '', links: [] },
  };
}

describe('drive page maths', () => {
  it('starts at page 1 unless a page is chosen', () => {
    expect(firstPageNumber(undefined)).toBe(1);
    expect(firstPageNumber(3)).toBe(3);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses page %s before anything is sent', (page) => {
    expect(() => firstPageNumber(page)).toThrow(InvalidInputError);
  });

  it('leaves per_page out when perPage is not given, so the server default of 15 applies', () => {
    expect(perPageQuery(undefined)).toBeUndefined();
  });

  it('sends any whole perPage from 1 up: 10 to 100 is only a recommendation', () => {
    expect(perPageQuery(10)).toBe(10);
    expect(perPageQuery(1)).toBe(1);
    expect(perPageQuery(250)).toBe(250);
  });

  it.each([0, -15, 2.5, Number.POSITIVE_INFINITY])('refuses perPage %s', (perPage) => {
    expect(() => perPageQuery(perPage)).toThrow(InvalidInputError);
  });

  it('asks for the next page until the requested one is the last', () => {
    expect(nextPageNumber(1, pageOf(15, 3))).toBe(2);
    expect(nextPageNumber(2, pageOf(15, 3))).toBe(3);
    expect(nextPageNumber(3, pageOf(10, 3))).toBeUndefined();
  });

  it('stops on an empty page, as a page past the end answers', () => {
    expect(nextPageNumber(7, pageOf(0, 9))).toBeUndefined();
  });

  it('counts from the page it asked for, not the number the server echoes', () => {
    const echoesOne = { ...pageOf(15, 3), meta: { ...pageOf(15, 3).meta, current_page: 1 } };
    expect(nextPageNumber(3, echoesOne)).toBeUndefined();
  });

  it('keeps 6 pages in flight unless the caller chooses, and 1 means one at a time', () => {
    expect(DEFAULT_PAGE_CONCURRENCY).toBe(6);
    expect(pageConcurrency(undefined)).toBe(6);
    expect(pageConcurrency(1)).toBe(1);
    expect(pageConcurrency(8)).toBe(8);
  });

  it.each([0, -2, 1.5, Number.NaN])('refuses concurrency %s', (concurrency) => {
    expect(() => pageConcurrency(concurrency)).toThrow(InvalidInputError);
  });
});
