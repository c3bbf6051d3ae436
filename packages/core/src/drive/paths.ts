import { pathSegment } from '../http/path-segment.js';

/** Which asset: the drive it lives in and its content id. */
export interface ContentRef {
  driveId: string;
  contentId: string;
}

/** Which version of which asset. */
export interface VersionRef extends ContentRef {
  versionId: string;
}

/** `/v1/drives/{drive_id}/content/{content_id}/versions` with every id as one encoded segment. */
export function versionsPath(ref: ContentRef): string {
  return `/v1/drives/${pathSegment('driveId', ref.driveId)}/content/${pathSegment('contentId', ref.contentId)}/versions`;
}

/** `/v1/drives/{drive_id}/content/{content_id}/versions/{version_id}`. */
export function versionPath(ref: VersionRef): string {
  return `${versionsPath(ref)}/${pathSegment('versionId', ref.versionId)}`;
}
