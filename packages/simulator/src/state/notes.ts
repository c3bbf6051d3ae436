import type { Note, Ref } from '@stagelink/core';
import { notFound } from './refusal.js';
import { findByRef, requireByRef, toNamedRef } from './refs.js';
import type { UidSource } from './uids.js';

interface NamedNote {
  readonly uid: string;
  readonly name: string;
  text: string;
}

/** The project's named notes, in creation order. */
export class NotesBook {
  readonly #notes: NamedNote[];

  constructor(
    private readonly uids: UidSource,
    notes: readonly Note[],
  ) {
    this.#notes = notes.map(({ note, text }) => ({ ...toNamedRef(note), text }));
  }

  get(ref: Ref): Note {
    return noteOnWire(requireByRef(this.#notes, ref, 'note'));
  }

  /** Updates the note the Ref finds; a Ref with a name only and no such note creates it (a uid cannot). */
  set(ref: Ref, text: string): Note {
    const existing = findByRef(this.#notes, ref);
    if (existing) {
      existing.text = text;
      return noteOnWire(existing);
    }
    if (ref.uid || !ref.name) throw notFound(`Note with uid ${ref.uid ?? ''} not found: give only a name to create a new note.`);
    const created = { uid: this.uids.next(), name: ref.name, text };
    this.#notes.push(created);
    return noteOnWire(created);
  }

  /** `count` notes from index `start`; a count of 0 (a proto3 default when absent) means all the rest. */
  list(start: number, count: number): Note[] {
    const end = count === 0 ? undefined : start + count;
    return this.#notes.slice(start, end).map(noteOnWire);
  }
}

function noteOnWire(note: NamedNote): Note {
  return { note: toNamedRef(note), text: note.text };
}
