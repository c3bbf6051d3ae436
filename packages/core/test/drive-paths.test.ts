import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../src/index.js';
import { versionPath, versionsPath } from '../src/drive/paths.js';
import { pathSegment } from '../src/http/path-segment.js';

describe('drive paths', () => {
  it('builds the spec paths', () => {
    expect(versionsPath({ driveId: 'd1', contentId: 'c1' })).toBe('/v1/drives/d1/content/c1/versions');
    expect(versionPath({ driveId: 'd1', contentId: 'c1', versionId: 'v1' })).toBe('/v1/drives/d1/content/c1/versions/v1');
  });

  it.each([
    ['a/b', 'a%2Fb'],
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['v1.2', 'v1%2E2'],
    ['x?y#z', 'x%3Fy%23z'],
    ['%2F', '%252F'],
  ])('encodes %s as the single segment %s', (id, segment) => {
    expect(pathSegment('versionId', id)).toBe(segment);
    expect(decodeURIComponent(segment)).toBe(id);
  });

  it.each([[''], [undefined], [42]])('refuses the id %s before anything is sent', (id) => {
    expect(() => pathSegment('driveId', id)).toThrow(InvalidInputError);
  });
});
