import { AuthError, ConflictError, HttpError, NotFoundError, type RequestContext } from '../errors.js';
import type { HttpResponse } from '../http/http-client.js';
import type { VersionRef } from './paths.js';
import { NOT_FOUND_MESSAGES, type DriveErrorBody, type DriveResource } from './types.js';

/** A drive 404. `resource` says what was missing; undefined when the answer was not a drive error body. */
export class DriveNotFoundError extends NotFoundError {
  override name = 'DriveNotFoundError';
  override readonly code: string = 'STAGELINK_ERR_DRIVE_NOT_FOUND';
  constructor(
    message: string,
    readonly resource: DriveResource | undefined,
    body: unknown,
    context: RequestContext,
  ) {
    super(message, 404, body, context);
  }
}

/**
 * Turns a drive answer outside 2xx into a typed error whose message says what to do. The body must already be
 * free of the token (see redactSecret): it becomes the error's `body` and part of its message.
 */
export function driveErrorFor(response: HttpResponse, ids: Partial<VersionRef>): HttpError {
  const { status, body, context } = response;
  const where = `${context.method} ${context.url} answered ${status}`;
  const says = serverSays(body);
  if (status === 401) {
    const advice = `the drive refused the token (missing, invalid or revoked). Create a token in the organisation's Settings > Integrations tab, as an admin or owner, and pass it as the token option.`;
    return new AuthError(`${where}: ${advice}${says}`, status, body, context);
  }
  if (status === 403) {
    const advice = `the token's user may not do this (changing versions needs an admin or owner on a plan that includes versions).`;
    return new AuthError(`${where}: ${advice}${says}`, status, body, context);
  }
  if (status === 404) return notFoundError(where, ids, body, context);
  if (status === 409) return new ConflictError(`${where}: the drive refused the change.${says}`, status, body, context);
  if (status >= 500) return new HttpError(`${where}: the drive service failed.${says}${unknownOutcome(context)}`, status, body, context);
  return new HttpError(`${where}: the drive could not use the request.${says}`, status, body, context);
}

/** What to do after a DELETE whose outcome is unknown: it is never sent twice, so the caller has to look. */
export function unknownOutcome(context: RequestContext): string {
  return context.method === 'DELETE'
    ? ' If the request reached the server, the version may be deleted already: list the versions before deleting again.'
    : '';
}

function notFoundError(where: string, ids: Partial<VersionRef>, body: unknown, context: RequestContext): DriveNotFoundError {
  const resource = missingResource(body);
  const { driveId, contentId, versionId } = ids;
  const message =
    resource === 'drive'
      ? `Drive ${quote(driveId)} was not found (${where}): check driveId and that the token belongs to the drive's organisation.`
      : resource === 'content'
        ? `Content ${quote(contentId)} was not found in drive ${quote(driveId)} (${where}): check contentId.`
        : resource === 'version'
          ? `Version ${quote(versionId)} of content ${quote(contentId)} was not found (${where}): list the versions to see which exist.`
          : `${where} without a drive error: check that baseUrl is the drive service's address, path prefix included.${serverSays(body)}`;
  return new DriveNotFoundError(message, resource, body, context);
}

function missingResource(body: unknown): DriveResource | undefined {
  if (!isDriveErrorBody(body)) return undefined;
  const entries = Object.entries(NOT_FOUND_MESSAGES) as [DriveResource, string][];
  return entries.find(([, message]) => message === body.error.message)?.[0];
}

function serverSays(body: unknown): string {
  const text = isDriveErrorBody(body) ? errorText(body) : typeof body === 'string' ? body : JSON.stringify(body);
  return text ? ` Server says: ${text.slice(0, 300)}` : '';
}

function errorText({ error }: DriveErrorBody): string {
  return error.details && error.details !== error.message ? `${error.message} (${error.details})` : error.message;
}

function isDriveErrorBody(body: unknown): body is DriveErrorBody {
  const error = (body as Partial<DriveErrorBody> | null | undefined)?.error;
  return typeof error === 'object' && error !== null && typeof error.message === 'string';
}

function quote(id: string | undefined): string {
  return JSON.stringify(id ?? '');
}
