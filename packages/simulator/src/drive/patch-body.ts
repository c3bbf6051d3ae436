import type { VersionUpdateBody } from '@stagelink/core';
import type { VersionChange } from './drive-state.js';

export type PatchBodyParse = { ok: true; change: VersionChange } | { ok: false; status: 400 | 422; details: string };

/**
 * Reads a version's PATCH body: a JSON object with an optional string `label` and an optional boolean
 * `set_active`; other fields are ignored. An empty body changes nothing.
 */
export function parsePatchBody(text: string): PatchBodyParse {
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, status: 400, details: 'The request body is not valid JSON.' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, status: 400, details: 'The request body must be a JSON object.' };
  }
  const { label, set_active: setActive } = parsed as Record<keyof VersionUpdateBody, unknown>;
  if (label !== undefined && typeof label !== 'string') {
    return { ok: false, status: 422, details: 'The label field must be a string.' };
  }
  if (setActive !== undefined && typeof setActive !== 'boolean') {
    return { ok: false, status: 422, details: 'The set active field must be true or false.' };
  }
  return { ok: true, change: { label, setActive } };
}
