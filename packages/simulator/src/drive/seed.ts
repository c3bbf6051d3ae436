import type { UserStatus, Version, VersionType } from '@stagelink/core';
import { pick, randomHex, randomInt, seededRandom, type Random } from './random.js';
import { formatMicros } from './timestamps.js';

export interface SeededAsset {
  id: string;
  name: string;
  /** Most recent first. */
  versions: Version[];
}

export interface SeededDrive {
  id: string;
  name: string;
  assets: SeededAsset[];
}

/** An API token of the organisation and what its user may do. */
export interface ApiToken {
  value: string;
  userId: string;
  revoked: boolean;
  /** False for a user whose plan has no version rights: reading is allowed, PATCH and DELETE are not. */
  mayChangeVersions: boolean;
}

export interface SeededOrganisation {
  drives: SeededDrive[];
  tokens: ApiToken[];
  /** Who uploaded the seeded versions; bulk assets use them too. */
  uploaders: Uploaders;
  demo: {
    token: string;
    revokedToken: string;
    withoutVersionRightsToken: string;
    driveId: string;
    /** The asset with 40 versions. */
    contentId: string;
    singleVersionContentId: string;
    /** An asset whose first version has not been uploaded yet: its listing is empty. */
    emptyContentId: string;
  };
}

interface AssetPlan {
  name: string;
  type: VersionType;
  versionCount: number;
  /** How many of the newest versions are still being processed. */
  pendingNewest?: number;
}

export interface User {
  id: string;
  status: UserStatus;
}

export type Uploaders = readonly [User, ...User[]];

const SHOW_ASSETS: AssetPlan[] = [
  { name: 'main-stage.scene', type: 'scene', versionCount: 40 },
  { name: 'poster.png', type: 'image', versionCount: 1 },
  { name: 'intro.mp4', type: 'video', versionCount: 3, pendingNewest: 1 },
  { name: 'blocking.previz', type: 'previz', versionCount: 5, pendingNewest: 1 },
  { name: 'rider.pdf', type: 'file', versionCount: 2 },
];
const ARCHIVE_ASSETS: AssetPlan[] = [{ name: 'last-tour.scene', type: 'scene', versionCount: 2 }];
const EMPTY_ASSET: AssetPlan = { name: 'encore.scene', type: 'scene', versionCount: 0 };

const LABELS = ['Opening night', 'Tech rehearsal', 'Director notes', 'Final', 'Colour pass'] as const;
const FIRST_UPLOAD_MICROS = Date.UTC(2025, 0, 6, 9, 0, 0) * 1000;
const MINUTE_MICROS = 60_000_000;
const DAY_MICROS = 24 * 60 * MINUTE_MICROS;
const FILES_ORIGIN = 'https://files.drive.example';

/** The demo organisation: two drives, assets of every type, and its tokens. The same seed gives the same data. */
export function seedOrganisation(seed: number): SeededOrganisation {
  const random = seededRandom(seed);
  const owner: User = { id: `usr_${randomHex(random, 8)}`, status: 'active' };
  const admin: User = { id: `usr_${randomHex(random, 8)}`, status: 'active' };
  const formerAdmin: User = { id: `usr_${randomHex(random, 8)}`, status: 'deleted' };
  const freePlanAdmin: User = { id: `usr_${randomHex(random, 8)}`, status: 'active' };
  const uploaders: Uploaders = [owner, admin, formerAdmin];
  const show = seedDrive(random, 'Show assets', SHOW_ASSETS, uploaders);
  const archive = seedDrive(random, 'Archive', ARCHIVE_ASSETS, uploaders);
  const tokens: ApiToken[] = [
    { value: randomHex(random, 40), userId: owner.id, revoked: false, mayChangeVersions: true },
    { value: randomHex(random, 40), userId: admin.id, revoked: true, mayChangeVersions: true },
    { value: randomHex(random, 40), userId: freePlanAdmin.id, revoked: false, mayChangeVersions: false },
  ];
  const [demoToken, revokedToken, withoutRightsToken] = tokens.map((token) => token.value) as [string, string, string];
  const [manyVersions, singleVersion] = show.assets as [SeededAsset, SeededAsset];
  // Drawn last, so that every id and token above stays what the same seed gave before it was added.
  const awaitingUpload = seedAsset(random, EMPTY_ASSET, FIRST_UPLOAD_MICROS, uploaders);
  show.assets.push(awaitingUpload);
  return {
    drives: [show, archive],
    tokens,
    uploaders,
    demo: {
      token: demoToken,
      revokedToken,
      withoutVersionRightsToken: withoutRightsToken,
      driveId: show.id,
      contentId: manyVersions.id,
      singleVersionContentId: singleVersion.id,
      emptyContentId: awaitingUpload.id,
    },
  };
}

/**
 * An extra scene asset with `versionCount` versions, for listings larger than the seeded ones (the control action
 * `addAsset`): the same random source gives the same asset.
 */
export function seedBulkAsset(random: Random, versionCount: number, uploaders: Uploaders): SeededAsset {
  const plan: AssetPlan = { name: `bulk-${versionCount}.scene`, type: 'scene', versionCount };
  return seedAsset(random, plan, FIRST_UPLOAD_MICROS, uploaders);
}

function seedDrive(random: Random, name: string, plans: AssetPlan[], uploaders: Uploaders): SeededDrive {
  const id = `drv_${randomHex(random, 12)}`;
  const assets = plans.map((plan, index) => seedAsset(random, plan, FIRST_UPLOAD_MICROS + index * DAY_MICROS, uploaders));
  return { id, name, assets };
}

function seedAsset(random: Random, plan: AssetPlan, firstUploadMicros: number, uploaders: Uploaders): SeededAsset {
  const assetId = `cnt_${randomHex(random, 12)}`;
  const oldestFirst: Version[] = [];
  let createdMicros = firstUploadMicros + randomInt(random, 0, 999_999);
  for (let number = 1; number <= plan.versionCount; number++) {
    const pending = number > plan.versionCount - (plan.pendingNewest ?? 0);
    oldestFirst.push(seedVersion(random, { plan, assetId, number, createdMicros, pending, uploader: pick(random, uploaders) }));
    createdMicros += randomInt(random, 30, 48 * 60) * MINUTE_MICROS + randomInt(random, 0, 59_999_999);
  }
  const versions = oldestFirst.reverse();
  // The active version is the newest one that has finished processing, as after a normal upload.
  const active = versions.find((version) => version.status === 'ready') ?? versions[0];
  if (active) active.is_active = true;
  return { id: assetId, name: plan.name, versions };
}

interface VersionSeed {
  plan: AssetPlan;
  assetId: string;
  number: number;
  createdMicros: number;
  pending: boolean;
  uploader: User;
}

function seedVersion(random: Random, { plan, assetId, number, createdMicros, pending, uploader }: VersionSeed): Version {
  const id = `ver_${randomHex(random, 16)}`;
  const processingMicros = pending ? 0 : randomInt(random, 1, 600) * 1_000_000;
  return {
    id,
    asset_id: assetId,
    label: random() < 0.3 ? pick(random, LABELS) : null,
    thumbnail: `${FILES_ORIGIN}/thumbnails/${id}.jpg`,
    version_number: number,
    filesize_bytes: randomInt(random, 20_000, 900_000_000),
    type: plan.type,
    status: pending ? 'pending' : 'ready',
    url: `${FILES_ORIGIN}/content/${assetId}/${id}/${plan.name}`,
    is_active: false,
    created_at: formatMicros(createdMicros),
    updated_at: formatMicros(createdMicros + processingMicros),
    uploaded_by_user: uploader.id,
    uploaded_by_user_status: uploader.status,
  };
}
