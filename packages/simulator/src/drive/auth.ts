import type { ApiToken } from './seed.js';

export type Authentication = { ok: true; token: ApiToken } | { ok: false; details: string };

/**
 * Checks `Authorization: Token <API_TOKEN>`, the drive's only scheme. A revoked token is refused exactly like an unknown
 * one, so an answer never tells whether a guessed token once existed.
 */
export function authenticate(header: string | undefined, tokens: readonly ApiToken[]): Authentication {
  if (header === undefined || header.trim() === '') {
    return { ok: false, details: 'No API token: send the header Authorization: Token <API_TOKEN>.' };
  }
  const match = /^Token +(\S+)\s*$/i.exec(header);
  const value = match?.[1];
  if (value === undefined) {
    return { ok: false, details: 'Malformed Authorization header: the format is Authorization: Token <API_TOKEN>.' };
  }
  const token = tokens.find((candidate) => candidate.value === value);
  if (!token || token.revoked) return { ok: false, details: 'The API token is invalid or has been revoked.' };
  return { ok: true, token };
}
