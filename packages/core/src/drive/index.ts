export { DriveClient, type DriveClientOptions } from './drive-client.js';
export { DriveVersions, type GetVersionOptions, type UpdateVersionOptions, type DeleteVersionOptions } from './versions.js';
export { VersionList, type ListVersionsOptions } from './version-list.js';
export { DriveNotFoundError } from './errors.js';
export type { ContentRef, VersionRef } from './paths.js';
export type * from './types.js';
