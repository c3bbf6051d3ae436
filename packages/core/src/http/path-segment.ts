import { InvalidInputError } from '../errors.js';

/**
 * Encodes an id as exactly one path segment, so no id can change the path: `/` becomes `%2F`, and dots are
 * encoded as well because an id of `.` or `..` would otherwise be removed as a dot segment on the way.
 */
export function pathSegment(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidInputError(`${name} must be a non-empty string, got ${value === '' ? 'an empty string' : typeof value}.`);
  }
  return encodeURIComponent(value).replace(/\./g, '%2E');
}
