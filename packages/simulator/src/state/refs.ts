import type { NamedRef, Ref } from '@stagelink/core';
import { notFound } from './refusal.js';

/** Anything a Ref can point at. */
export interface Identified {
  uid: string;
  name: string;
}

/**
 * A uid, when given, decides alone and is compared as an exact decimal string (a uint64 never passes through a
 * JS number); the name is used only when no uid is given. A name that looks like a number stays a name.
 */
export function matchesRef(item: Identified, ref: Ref): boolean {
  if (ref.uid) return item.uid === ref.uid;
  return ref.name !== undefined && ref.name !== '' && item.name === ref.name;
}

export function findByRef<T extends Identified>(items: Iterable<T>, ref: Ref): T | undefined {
  for (const item of items) if (matchesRef(item, ref)) return item;
  return undefined;
}

/** Finds the item or refuses with a message naming what was not found, where, and what exists. */
export function requireByRef<T extends Identified>(items: readonly T[], ref: Ref, kind: string, where?: string): T {
  const found = findByRef(items, ref);
  if (found) return found;
  throw notFound(`${capitalise(kind)} ${describeRef(ref)} not found${where ? ` in ${where}` : ''}${knownNames(items)}.`);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function describeRef(ref: Ref): string {
  if (ref.uid && ref.name) return `"${ref.name}" (uid ${ref.uid})`;
  if (ref.uid) return `with uid ${ref.uid}`;
  return `"${ref.name ?? ''}"`;
}

/** ` (known: a, b, c)`: mistyped names are the most common cause of a refusal on real servers. */
export function knownNames(items: readonly Identified[]): string {
  if (items.length === 0) return ' (there are none)';
  const names = items.slice(0, 12).map((item) => `"${item.name}"`);
  return ` (known: ${names.join(', ')}${items.length > 12 ? ', ...' : ''})`;
}

export function toNamedRef(item: Identified): NamedRef {
  return { uid: item.uid, name: item.name };
}
