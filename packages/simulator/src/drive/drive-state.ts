import type { Version } from '@stagelink/core';
import type { SeededAsset, SeededDrive } from './seed.js';
import type { Clock } from './timestamps.js';

/** Why the state refused a request; the service turns each into the spec's status and message. */
export type DriveFailure = 'drive-not-found' | 'content-not-found' | 'version-not-found' | 'last-version';

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: DriveFailure };

export interface VersionAddress {
  driveId: string;
  contentId: string;
  versionId: string;
}

export interface VersionChange {
  label?: string;
  setActive?: boolean;
}

/**
 * Drives, their assets and the assets' versions, with the rules of the spec's states table (section 3):
 * exactly one version of an asset is active; set_active true moves the active flag, false changes nothing;
 * deleting the active version activates the most recent remaining one; the last version is never deleted.
 * A version's `updated_at` changes whenever one of its fields does. Everything handed out is a copy.
 */
export class DriveState {
  /** drive id → asset id → versions, most recent first. */
  readonly #drives = new Map<string, Map<string, Version[]>>();
  readonly #now: Clock;

  constructor(drives: readonly SeededDrive[], now: Clock) {
    this.#now = now;
    for (const drive of drives) {
      const assets = new Map(drive.assets.map((asset) => [asset.id, asset.versions.map((version) => ({ ...version }))]));
      this.#drives.set(drive.id, assets);
    }
  }

  /** Adds an asset, versions most recent first, to one of the drives. */
  addAsset(driveId: string, asset: SeededAsset): void {
    const assets = this.#drives.get(driveId);
    if (!assets) throw new Error(`The simulated drive ${driveId} does not exist: asset ${asset.id} was not added.`);
    assets.set(asset.id, asset.versions.map(copy));
  }

  /** The versions of an asset, most recent (highest version_number) first. */
  listVersions(driveId: string, contentId: string): Outcome<Version[]> {
    const versions = this.#versionsOf(driveId, contentId);
    return versions.ok ? success(versions.value.map(copy)) : versions;
  }

  getVersion(address: VersionAddress): Outcome<Version> {
    const found = this.#find(address);
    return found.ok ? success(copy(found.value.version)) : found;
  }

  updateVersion(address: VersionAddress, change: VersionChange): Outcome<Version> {
    const found = this.#find(address);
    if (!found.ok) return found;
    const { version, versions } = found.value;
    const now = this.#now();
    if (change.label !== undefined && change.label !== version.label) {
      version.label = change.label;
      version.updated_at = now;
    }
    // set_active false is deliberately ignored: the spec says it has no effect.
    if (change.setActive === true) {
      for (const other of versions) setActive(other, other === version, now);
    }
    return success(copy(version));
  }

  deleteVersion(address: VersionAddress): Outcome<undefined> {
    const found = this.#find(address);
    if (!found.ok) return found;
    const { version, versions } = found.value;
    if (versions.length === 1) return failure('last-version');
    versions.splice(versions.indexOf(version), 1);
    const mostRecentRemaining = versions[0];
    if (version.is_active && mostRecentRemaining) setActive(mostRecentRemaining, true, this.#now());
    return success(undefined);
  }

  #versionsOf(driveId: string, contentId: string): Outcome<Version[]> {
    const assets = this.#drives.get(driveId);
    if (!assets) return failure('drive-not-found');
    const versions = assets.get(contentId);
    return versions ? success(versions) : failure('content-not-found');
  }

  #find(address: VersionAddress): Outcome<{ version: Version; versions: Version[] }> {
    const versions = this.#versionsOf(address.driveId, address.contentId);
    if (!versions.ok) return versions;
    const version = versions.value.find((candidate) => candidate.id === address.versionId);
    return version ? success({ version, versions: versions.value }) : failure('version-not-found');
  }
}

function setActive(version: Version, active: boolean, now: string): void {
  if (version.is_active === active) return;
  version.is_active = active;
  version.updated_at = now;
}

function copy(version: Version): Version {
  return { ...version };
}

function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

function failure(reason: DriveFailure): { ok: false; failure: DriveFailure } {
  return { ok: false, failure: reason };
}
