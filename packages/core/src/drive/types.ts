/**
 * Wire types of the cloud drive's asset versions with the API's field names.
 * The simulator imports these; nobody re-declares them.
 */

/** The spec gives file, image, scene, video and previz as examples, so other strings may arrive. */
export type VersionType = 'file' | 'image' | 'scene' | 'video' | 'previz' | (string & {});

/** Processing status; the spec gives pending and ready as examples. */
export type VersionStatus = 'pending' | 'ready' | (string & {});

export type UserStatus = 'active' | 'deleted' | (string & {});

/** One iteration of an asset. Exactly one version of an asset is active. */
export interface Version {
  id: string;
  asset_id: string;
  label: string | null;
  thumbnail: string;
  version_number: number;
  filesize_bytes: number;
  type: VersionType;
  status: VersionStatus;
  url: string;
  is_active: boolean;
  /** ISO 8601 UTC with microseconds and a trailing Z, e.g. `2024-05-01T09:30:00.123456Z`. */
  created_at: string;
  updated_at: string;
  uploaded_by_user: string;
  uploaded_by_user_status: UserStatus;
}

export interface PageLinks {
  first: string;
  last: string;
  prev: string | null;
  next: string | null;
}

/** One entry of `meta.links`. Labels differ between servers (`&laquo; Previous`, `Previous`): never parse them. */
export interface PageMetaLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface PageMeta {
  current_page: number;
  /** 1-based index of the first item on this page; null on an empty page. */
  from: number | null;
  /** 1-based index of the last item on this page; null on an empty page. */
  to: number | null;
  /** At least 1, even with no items. */
  last_page: number;
  per_page: number;
  total: number;
  /** The endpoint's URL without query string. */
  path: string;
  links: PageMetaLink[];
}

/** The pagination wrapper (Laravel's resource-collection shape). */
export interface Page<T> {
  data: T[];
  links: PageLinks;
  meta: PageMeta;
}

export type VersionPage = Page<Version>;

/** PATCH body: each field is a separate update. */
export interface VersionUpdateBody {
  label?: string;
  set_active?: boolean;
}

/** Every error the drive answers: message and details are both strings. */
export interface DriveErrorBody {
  error: { message: string; details: string };
}

/** What a drive 404 says was missing. */
export type DriveResource = 'drive' | 'content' | 'version';

/** The drive API's 404 messages, by resource. */
export const NOT_FOUND_MESSAGES: Readonly<Record<DriveResource, string>> = {
  drive: 'Drive not found',
  content: 'Content not found',
  version: 'Content Version not found',
};

/** Default page size; the server also leaves it out of the links it writes. */
export const DEFAULT_PER_PAGE = 15;
