import type { Indirection, NamedRef, Ref } from '@stagelink/core';
import { notFound } from './refusal.js';
import { findByRef, knownNames, describeRef, requireByRef, toNamedRef } from './refs.js';

export interface IndirectionModel {
  readonly uid: string;
  readonly name: string;
  readonly resourceType: string;
  /** The resources this indirection may point at. */
  readonly resources: readonly NamedRef[];
  currentUid: string;
}

/** Indirections: named slots in the show that point at one resource of their type at a time. */
export class Sequencing {
  constructor(private readonly slots: readonly IndirectionModel[]) {}

  indirections(): Indirection[] {
    return this.slots.map((slot) => ({
      ...toNamedRef(slot),
      resourceType: slot.resourceType,
      currentResource: toNamedRef(slot.resources.find((resource) => resource.uid === slot.currentUid) ?? { uid: '0', name: '' }),
    }));
  }

  resources(ref: Ref): NamedRef[] {
    return requireByRef(this.slots, ref, 'indirection').resources.map(toNamedRef);
  }

  /** Checks every change before applying any: one unknown reference refuses the whole request. */
  change(changes: readonly { indirection: Ref; resource: Ref }[]): void {
    const planned = changes.map(({ indirection, resource }) => {
      const slot = requireByRef(this.slots, indirection, 'indirection');
      const target = findByRef(slot.resources, resource);
      if (!target) {
        throw notFound(`Resource ${describeRef(resource)} is not available to indirection "${slot.name}"${knownNames(slot.resources)}.`);
      }
      return { slot, uid: target.uid };
    });
    for (const { slot, uid } of planned) slot.currentUid = uid;
  }
}
