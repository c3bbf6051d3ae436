import { errorResponse, failureResponse, forbiddenForPlan, invalidInput, unauthenticated, type ApiResponse } from './api-errors.js';
import { authenticate } from './auth.js';
import type { DriveState, Outcome } from './drive-state.js';
import { paginate, parsePageRequest } from './laravel-page.js';
import { parsePatchBody } from './patch-body.js';
import { ALLOWED_METHODS, matchRoute, pathSegments, type DriveRoute } from './routes.js';
import type { ApiToken } from './seed.js';

/** What the API needs to answer: the drive data, the organisation's tokens and its own address for links. */
export interface DriveApi {
  state: DriveState;
  tokens: readonly ApiToken[];
  baseUrl: string;
}

export interface ApiRequest {
  method: string;
  /** The path exactly as received, without the query string. */
  rawPath: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

/**
 * Answers one API request. Checks run in this order: path (404), method (405), token (401), plan (403),
 * input (400/422), then the drive's rules (404 for a missing drive, content or version; 409 for the last version).
 */
export function answerApiRequest(api: DriveApi, request: ApiRequest): ApiResponse {
  const segments = pathSegments(request.rawPath);
  if (!segments) return errorResponse(400, 'Bad request', 'The path is not valid percent-encoding.');
  const route = matchRoute(segments);
  if (!route) return errorResponse(404, 'Not found', `No endpoint at ${request.rawPath.slice(0, 200)}.`);
  const allowed = ALLOWED_METHODS[route.endpoint];
  if (!allowed.includes(request.method)) {
    const list = allowed.join(', ');
    return errorResponse(405, 'Method not allowed', `This endpoint answers ${list}.`, { allow: list });
  }
  const authentication = authenticate(request.authorization, api.tokens);
  if (!authentication.ok) return unauthenticated(authentication.details);
  if (request.method !== 'GET' && !authentication.token.mayChangeVersions) return forbiddenForPlan();
  return route.endpoint === 'versions' ? listVersions(api, route, request) : answerVersion(api, route, request);
}

function listVersions(api: DriveApi, route: DriveRoute, request: ApiRequest): ApiResponse {
  const pageRequest = parsePageRequest(request.query);
  if (!pageRequest.ok) return invalidInput(pageRequest.details);
  const versions = api.state.listVersions(route.driveId, route.contentId);
  if (!versions.ok) return failureResponse(versions.failure);
  return { status: 200, body: paginate(versions.value, pageRequest.request, api.baseUrl + request.rawPath) };
}

function answerVersion(api: DriveApi, route: Extract<DriveRoute, { endpoint: 'version' }>, request: ApiRequest): ApiResponse {
  switch (request.method) {
    case 'PATCH': {
      const patch = parsePatchBody(request.body);
      if (!patch.ok) return patch.status === 400 ? errorResponse(400, 'Bad request', patch.details) : invalidInput(patch.details);
      return answer(api.state.updateVersion(route, patch.change), 200);
    }
    case 'DELETE':
      return answer(api.state.deleteVersion(route), 204);
    default:
      return answer(api.state.getVersion(route), 200);
  }
}

function answer(outcome: Outcome<unknown>, status: number): ApiResponse {
  return outcome.ok ? { status, body: outcome.value } : failureResponse(outcome.failure);
}
