import { InvalidInputError } from '../errors.js';
import type { Ref } from './types.js';

/**
 * Checks a Ref before it is sent: at least a uid or a name, uids as strings (a uint64 does not survive a JS
 * number), and nothing else. A name that looks like a number stays a name.
 */
export function checkRef(ref: Ref | undefined, what: string): Ref {
  if (ref === null || typeof ref !== 'object') {
    throw new InvalidInputError(`${what} must be given as { uid } or { name }.`);
  }
  const { uid, name } = ref as { uid?: unknown; name?: unknown };
  if (uid !== undefined && typeof uid !== 'string') {
    throw new InvalidInputError(`${what} uid must be a string (got ${typeof uid}): uids are uint64 and lose digits as numbers.`);
  }
  if (name !== undefined && typeof name !== 'string') {
    throw new InvalidInputError(`${what} name must be a string (got ${typeof name}).`);
  }
  if (!uid && !name) throw new InvalidInputError(`${what} needs a uid or a name.`);
  const checked: Ref = {};
  if (uid) checked.uid = uid;
  if (name) checked.name = name;
  return checked;
}

/** Query parameters that address an object by uid and/or name. */
export function refQuery(ref: Ref, what: string): Record<string, string | undefined> {
  const { uid, name } = checkRef(ref, what);
  return { uid, name };
}

export function asArray<T>(value: T | readonly T[]): T[] {
  return Array.isArray(value) ? [...(value as readonly T[])] : [value as T];
}

/**
 * A value as an error message shows it: JSON, cut to a few dozen characters, so that a hostile or mistaken input
 * (a whole file in a field) cannot make the message itself a problem.
 */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

export function checkNumber(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidInputError(`${what} must be a finite number (got ${shown(value)}).`);
  }
  return value;
}

/**
 * A transport's volume or brightness: 0 to 1. Shipping directors answer a value outside it as done and change
 * nothing, so it is refused here, where the caller still hears of it.
 */
export function checkLevel(value: unknown, what: 'volume' | 'brightness'): number {
  const level = checkNumber(value, what);
  if (level < 0 || level > 1) throw new InvalidInputError(`${what} must be from 0 to 1 (got ${shown(value)}): 0.5 is half.`);
  return level;
}

export function checkText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidInputError(`${what} must be a non-empty string (got ${shown(value)}).`);
  }
  return value;
}

export function checkBoolean(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') throw new InvalidInputError(`${what} must be true or false (got ${shown(value)}).`);
  return value;
}
