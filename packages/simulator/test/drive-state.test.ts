import type { Version } from '@stagelink/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DriveState, type VersionAddress } from '../src/drive/drive-state.js';
import type { SeededDrive } from '../src/drive/seed.js';

function version(number: number, active = false): Version {
  return {
    id: `v${number}`,
    asset_id: 'asset',
    label: null,
    thumbnail: '',
    version_number: number,
    filesize_bytes: 1,
    type: 'scene',
    status: 'ready',
    url: '',
    is_active: active,
    created_at: 'seeded',
    updated_at: 'seeded',
    uploaded_by_user: 'u1',
    uploaded_by_user_status: 'active',
  };
}

/** Drive d1 with asset "five" (v5..v1, v5 active) and asset "single" (v1 only). */
function drives(): SeededDrive[] {
  return [
    {
      id: 'd1',
      name: 'Show',
      assets: [
        { id: 'five', name: 'five', versions: [version(5, true), version(4), version(3), version(2), version(1)] },
        { id: 'single', name: 'single', versions: [version(1, true)] },
      ],
    },
  ];
}

let state: DriveState;
let ticks: number;
const at = (versionId: string, contentId = 'five'): VersionAddress => ({ driveId: 'd1', contentId, versionId });

function versionsOf(contentId = 'five'): Version[] {
  const listed = state.listVersions('d1', contentId);
  if (!listed.ok) throw new Error(listed.failure);
  return listed.value;
}

const active = (contentId = 'five'): string[] => versionsOf(contentId).filter((v) => v.is_active).map((v) => v.id);

beforeEach(() => {
  ticks = 0;
  state = new DriveState(drives(), () => `tick-${++ticks}`);
});

describe('drive state', () => {
  it('lists versions most recent first', () => {
    expect(versionsOf().map((v) => v.version_number)).toEqual([5, 4, 3, 2, 1]);
  });

  it('says which resource is missing, drive before content before version', () => {
    expect(state.listVersions('nope', 'nope')).toEqual({ ok: false, failure: 'drive-not-found' });
    expect(state.getVersion({ driveId: 'd1', contentId: 'nope', versionId: 'nope' })).toEqual({ ok: false, failure: 'content-not-found' });
    expect(state.getVersion(at('nope'))).toEqual({ ok: false, failure: 'version-not-found' });
  });

  it('set_active true leaves exactly that version active and stamps the versions it changed', () => {
    const result = state.updateVersion(at('v2'), { setActive: true });
    expect(result).toMatchObject({ ok: true, value: { id: 'v2', is_active: true } });
    expect(active()).toEqual(['v2']);
    const stamped = versionsOf().filter((v) => v.updated_at !== 'seeded').map((v) => v.id);
    expect(stamped.sort()).toEqual(['v2', 'v5']);
  });

  it('set_active true on the active version changes nothing', () => {
    const before = versionsOf();
    state.updateVersion(at('v5'), { setActive: true });
    expect(versionsOf()).toEqual(before);
  });

  it('set_active false changes nothing, on the active version or another', () => {
    const before = versionsOf();
    state.updateVersion(at('v5'), { setActive: false });
    state.updateVersion(at('v3'), { setActive: false });
    expect(versionsOf()).toEqual(before);
  });

  it('a new label moves updated_at; the same label does not', () => {
    state.updateVersion(at('v3'), { label: 'Final' });
    expect(state.getVersion(at('v3'))).toMatchObject({ value: { label: 'Final', updated_at: 'tick-1' } });
    state.updateVersion(at('v3'), { label: 'Final' });
    expect(state.getVersion(at('v3'))).toMatchObject({ value: { updated_at: 'tick-1' } });
  });

  it('deleting the active version makes the next most recent one active', () => {
    expect(state.deleteVersion(at('v5'))).toEqual({ ok: true, value: undefined });
    expect(versionsOf().map((v) => v.id)).toEqual(['v4', 'v3', 'v2', 'v1']);
    expect(active()).toEqual(['v4']);
  });

  it('deleting an older active version activates the most recent remaining one', () => {
    state.updateVersion(at('v2'), { setActive: true });
    state.deleteVersion(at('v2'));
    expect(active()).toEqual(['v5']);
  });

  it('deleting an inactive version leaves the active one', () => {
    state.deleteVersion(at('v3'));
    expect(active()).toEqual(['v5']);
    expect(versionsOf()).toHaveLength(4);
  });

  it('refuses to delete the last remaining version and keeps it', () => {
    expect(state.deleteVersion(at('v1', 'single'))).toEqual({ ok: false, failure: 'last-version' });
    expect(versionsOf('single').map((v) => v.id)).toEqual(['v1']);
  });

  it('deletes down to one version, then refuses', () => {
    for (const id of ['v5', 'v4', 'v3', 'v2']) expect(state.deleteVersion(at(id)).ok).toBe(true);
    expect(active()).toEqual(['v1']);
    expect(state.deleteVersion(at('v1'))).toEqual({ ok: false, failure: 'last-version' });
  });

  it('hands out copies, so callers cannot change the state', () => {
    const [newest] = versionsOf();
    if (newest) newest.is_active = false;
    expect(active()).toEqual(['v5']);
  });

  it('does not change the seed it was built from', () => {
    const seed = drives();
    const fromSeed = new DriveState(seed, () => 'now');
    fromSeed.deleteVersion(at('v5'));
    expect(seed[0]?.assets[0]?.versions).toHaveLength(5);
  });

  it('adds an asset to a drive, listed like the others, and refuses a drive that does not exist', () => {
    state.addAsset('d1', { id: 'added', name: 'added', versions: [version(2, true), version(1)] });
    expect(versionsOf('added').map((v) => v.id)).toEqual(['v2', 'v1']);
    expect(() => state.addAsset('nope', { id: 'other', name: 'other', versions: [version(1, true)] })).toThrow(/nope/);
  });
});
