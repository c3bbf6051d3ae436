import { NOT_FOUND_MESSAGES, type DriveErrorBody } from '@stagelink/core/protocol';
import type { DriveFailure } from './drive-state.js';

/** What the service answers: a status, an optional JSON body and extra headers. */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Every error in the spec's shape (section 7). The spec's own errors repeat the message as details. */
export function errorResponse(status: number, message: string, details = message, headers?: Record<string, string>): ApiResponse {
  const body: DriveErrorBody = { error: { message, details } };
  return { status, body, headers };
}

export function unauthenticated(details: string): ApiResponse {
  return errorResponse(401, 'Unauthenticated', details, { 'www-authenticate': 'Token' });
}

export function forbiddenForPlan(): ApiResponse {
  return errorResponse(403, 'Forbidden', 'Changing versions needs the Pro or Studio plan; this token may only read them.');
}

export function invalidInput(details: string): ApiResponse {
  return errorResponse(422, 'The given data was invalid.', details);
}

export function failureResponse(failure: DriveFailure): ApiResponse {
  switch (failure) {
    case 'drive-not-found':
      return errorResponse(404, NOT_FOUND_MESSAGES.drive);
    case 'content-not-found':
      return errorResponse(404, NOT_FOUND_MESSAGES.content);
    case 'version-not-found':
      return errorResponse(404, NOT_FOUND_MESSAGES.version);
    case 'last-version':
      return errorResponse(
        409,
        'Cannot delete the last version',
        'An asset that has versions keeps at least one: this is its only version, so it was not deleted.',
      );
  }
}
