import { UnexpectedAnswerError, type RequestContext } from '../errors.js';
import type { Page, Version } from './types.js';

/** True when a body has the pagination wrapper's shape, as far as reading pages relies on it. */
export function isPage(body: unknown): body is Page<unknown> {
  if (typeof body !== 'object' || body === null) return false;
  const { data, meta } = body as Partial<Page<unknown>>;
  return Array.isArray(data) && typeof meta === 'object' && meta !== null && Number.isInteger(meta.last_page);
}

/** True when a body looks like a Version (an object with a string id and an is_active flag). */
export function isVersion(body: unknown): body is Version {
  if (typeof body !== 'object' || body === null) return false;
  const { id, is_active: isActive } = body as Partial<Version>;
  return typeof id === 'string' && typeof isActive === 'boolean';
}

/** A 2xx answer whose body is not what the endpoint returns: most likely baseUrl points at another service. */
export function unexpectedAnswer(context: RequestContext, expected: string): UnexpectedAnswerError {
  return new UnexpectedAnswerError(
    `${context.method} ${context.url} succeeded but did not answer with ${expected}: check that baseUrl is the drive service's address, path prefix included.`,
    context,
  );
}
