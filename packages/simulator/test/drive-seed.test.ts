import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/drive/random.js';
import { seedBulkAsset, seedOrganisation } from '../src/drive/seed.js';
import { formatMicros, wallClock } from '../src/drive/timestamps.js';

const MICROSECOND_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('seeded organisation', () => {
  it('is the same for the same seed and different for another', () => {
    expect(seedOrganisation(7)).toEqual(seedOrganisation(7));
    expect(seedOrganisation(8).demo.token).not.toBe(seedOrganisation(7).demo.token);
  });

  it('has the demo assets: one with 40 versions, one with a single version and one with none yet', () => {
    const { drives, demo } = seedOrganisation(1);
    const demoAssets = drives.find((drive) => drive.id === demo.driveId)?.assets ?? [];
    expect(demoAssets.find((asset) => asset.id === demo.contentId)?.versions).toHaveLength(40);
    expect(demoAssets.find((asset) => asset.id === demo.singleVersionContentId)?.versions).toHaveLength(1);
    expect(demoAssets.find((asset) => asset.id === demo.emptyContentId)?.versions).toEqual([]);
  });

  it('mixes version types, statuses and uploader statuses', () => {
    const versions = seedOrganisation(1).drives.flatMap((drive) => drive.assets.flatMap((asset) => asset.versions));
    expect(new Set(versions.map((version) => version.type))).toEqual(new Set(['file', 'image', 'scene', 'video', 'previz']));
    expect(new Set(versions.map((version) => version.status))).toEqual(new Set(['pending', 'ready']));
    expect(new Set(versions.map((version) => version.uploaded_by_user_status))).toEqual(new Set(['active', 'deleted']));
  });

  it('gives every asset with versions one active, ready version and numbers versions newest first', () => {
    const assets = seedOrganisation(1).drives.flatMap((drive) => drive.assets);
    for (const asset of assets.filter((each) => each.versions.length > 0)) {
      const active = asset.versions.filter((version) => version.is_active);
      expect(active).toHaveLength(1);
      expect(active[0]?.status).toBe('ready');
      expect(asset.versions.map((version) => version.version_number)).toEqual(
        Array.from({ length: asset.versions.length }, (_, index) => asset.versions.length - index),
      );
    }
  });

  it('writes timestamps in UTC with microseconds, created before updated, older versions earlier', () => {
    for (const asset of seedOrganisation(1).drives.flatMap((drive) => drive.assets)) {
      for (const [index, version] of asset.versions.entries()) {
        expect(version.created_at).toMatch(MICROSECOND_UTC);
        expect(version.updated_at >= version.created_at).toBe(true);
        const older = asset.versions[index + 1];
        if (older) expect(older.created_at < version.created_at).toBe(true);
      }
    }
  });

  it('has a valid demo token, a revoked one and one without version rights', () => {
    const { tokens, demo } = seedOrganisation(1);
    const byValue = (value: string) => tokens.find((token) => token.value === value);
    expect(byValue(demo.token)).toMatchObject({ revoked: false, mayChangeVersions: true });
    expect(byValue(demo.revokedToken)).toMatchObject({ revoked: true });
    expect(byValue(demo.withoutVersionRightsToken)).toMatchObject({ revoked: false, mayChangeVersions: false });
  });
});

describe('timestamps', () => {
  it('formats microseconds since the epoch as ISO 8601 UTC with six decimals', () => {
    expect(formatMicros(Date.UTC(2025, 0, 6, 9, 0, 0) * 1000 + 123_456)).toBe('2025-01-06T09:00:00.123456Z');
    expect(formatMicros(7)).toBe('1970-01-01T00:00:00.000007Z');
  });

  it('never repeats or goes back, even when the wall clock does', () => {
    const readings = [5_000_000, 5_000_000, 4_000_000];
    const clock = wallClock(() => readings.shift() ?? 0);
    expect([clock(), clock(), clock()]).toEqual([formatMicros(5_000_000), formatMicros(5_000_001), formatMicros(5_000_002)]);
  });

  it('builds a bulk asset of any size like the seeded ones: numbered newest first, newest active, repeatable', () => {
    const { uploaders } = seedOrganisation(1);
    const bulk = seedBulkAsset(seededRandom(5), 5000, uploaders);
    expect(bulk.versions.map((version) => version.version_number)).toEqual(Array.from({ length: 5000 }, (_, index) => 5000 - index));
    expect(bulk.versions.filter((version) => version.is_active).map((version) => version.version_number)).toEqual([5000]);
    expect(new Set(bulk.versions.map((version) => version.id)).size).toBe(5000);
    expect(bulk.versions.at(-1)?.created_at).toMatch(MICROSECOND_UTC);
    expect(seedBulkAsset(seededRandom(5), 5000, uploaders)).toEqual(bulk);
  });
});
