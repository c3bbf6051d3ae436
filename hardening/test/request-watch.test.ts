import { describe, expect, it } from 'vitest';
import { RequestWatch } from '../src/support/request-watch.js';

/** What the simulator logs for a request whose target is `path` (query included). */
function arrived(paths: readonly string[]): string[] {
  const watch = new RequestWatch();
  for (const path of paths) watch.sink({ event: 'request', method: 'GET', path });
  return watch.escapes;
}

describe('ids leaving their path segment, from what reached the simulator', () => {
  it('sees no escape when every id arrives as one encoded segment', () => {
    const encoded = ['a%2Fb', 'a%3Fb%3Dc', 'a%23b', '%2E%2E', '%2F'].map((id) => `/v1/drives/${id}/content/c1/versions/${id}`);
    expect(arrived([...encoded, '/api/networkadapters/02-53-4C-00-00-01', '/v1/drives/d1/content/c1/versions?page=2'])).toEqual([]);
  });

  it.each([
    ['a "/" splitting a drive id', '/v1/drives/a/b/content/c1/versions'],
    ['a "?" cutting a content id into the query', '/v1/drives/d1/content/a?b=c/versions'],
    ['a "#" cutting a version id (the fragment is never sent)', '/v1/drives/d1/content/c1/versions/a'],
    ['a "/" as a whole MAC address', '/api/networkadapters/'],
    ['a dot segment', '/v1/drives/../content/c1/versions'],
  ])('sees %s', (_, path) => {
    expect(arrived([path])).toEqual([`GET ${path}`]);
  });
});
