import type { Cdl, Ref, Vec3 } from '@stagelink/core';
import { outOfRange } from './refusal.js';
import { requireByRef } from './refs.js';

/** A CDL change: the Ref fields find the CDL, the other fields present replace its values. */
export type CdlChange = Ref & Partial<Omit<Cdl, 'uid' | 'name'>>;

/** Colour decision lists. Values follow the ASC CDL rules: slope and saturation 0 or more, power above 0. */
export class Colour {
  readonly #cdls: Cdl[];

  constructor(cdls: readonly Cdl[]) {
    this.#cdls = structuredClone([...cdls]);
  }

  list(): Cdl[] {
    return structuredClone(this.#cdls);
  }

  set(change: CdlChange): void {
    const cdl = requireByRef(this.#cdls, { uid: change.uid, name: change.name }, 'CDL');
    checkVec3(change.slope, 'slope', (value) => value >= 0, '0 or more');
    checkVec3(change.power, 'power', (value) => value > 0, 'above 0');
    if (change.saturation !== undefined && change.saturation < 0) {
      throw outOfRange(`CDL "${cdl.name}": saturation ${change.saturation} must be 0 or more.`);
    }
    if (change.slope) cdl.slope = { ...change.slope };
    if (change.offset) cdl.offset = { ...change.offset };
    if (change.power) cdl.power = { ...change.power };
    if (change.saturation !== undefined) cdl.saturation = change.saturation;
  }
}

function checkVec3(value: Vec3 | undefined, what: string, allowed: (component: number) => boolean, rule: string): void {
  if (value && ![value.x, value.y, value.z].every(allowed)) {
    throw outOfRange(`CDL ${what} ${JSON.stringify(value)}: every component must be ${rule}.`);
  }
}
