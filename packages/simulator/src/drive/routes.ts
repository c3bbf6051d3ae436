/** Which endpoint a path names, with its ids decoded. Ids are whole segments: `%2F` inside one stays in it. */
export type DriveRoute =
  | { endpoint: 'versions'; driveId: string; contentId: string }
  | { endpoint: 'version'; driveId: string; contentId: string; versionId: string };

/** The methods each endpoint answers: listing is read-only, one version can also be updated and deleted. */
export const ALLOWED_METHODS: Readonly<Record<DriveRoute['endpoint'], readonly string[]>> = {
  versions: ['GET'],
  version: ['GET', 'PATCH', 'DELETE'],
};

/**
 * The decoded segments of a raw request path (no query). Split before decoding, and never through URL parsing,
 * which would remove `..` and `%2E%2E` segments. Undefined when a segment is not valid percent-encoding.
 */
export function pathSegments(rawPath: string): string[] | undefined {
  try {
    return rawPath.split('/').slice(1).map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

export function matchRoute(segments: readonly string[]): DriveRoute | undefined {
  const [v1, drives, driveId, content, contentId, versions, versionId, ...rest] = segments;
  if (v1 !== 'v1' || drives !== 'drives' || content !== 'content' || versions !== 'versions' || rest.length > 0) return undefined;
  if (!driveId || !contentId) return undefined;
  if (versionId === undefined) return { endpoint: 'versions', driveId, contentId };
  return versionId === '' ? undefined : { endpoint: 'version', driveId, contentId, versionId };
}
