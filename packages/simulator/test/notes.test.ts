import { describe, expect, it } from 'vitest';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, refusalOf } from './support/demo-state.js';

const names = (notes: { note: { name: string } }[]) => notes.map((note) => note.note.name);

describe('named notes', () => {
  it('lists count notes from start; count 0 means all the rest', () => {
    const { notes } = demoState();
    expect(names(notes.list(0, 0))).toEqual(['Welcome', 'Safety', 'Cast list', 'Stage manager', 'Encore', 'Strike']);
    expect(names(notes.list(1, 2))).toEqual(['Safety', 'Cast list']);
    expect(names(notes.list(4, 0))).toEqual(['Encore', 'Strike']);
    expect(notes.list(6, 3)).toEqual([]);
    expect(notes.list(Number.MAX_SAFE_INTEGER, 1)).toEqual([]);
  });

  it('reads a note by uid or name', () => {
    const { notes } = demoState();
    const safety = notes.get({ name: 'Safety' });
    expect(notes.get({ uid: safety.note.uid })).toEqual(safety);
    expect(refusalOf(() => notes.get({ name: 'Missing' })).code).toBe(StatusCode.notFound);
  });

  it('updates an existing note and creates a note named for the first time', () => {
    const { notes } = demoState();
    expect(notes.set({ name: 'Safety' }, 'Pyro on hold').text).toBe('Pyro on hold');
    const created = notes.set({ name: 'Curtain call' }, 'Twice');
    expect(created.note.uid).toMatch(/^\d+$/);
    expect(names(notes.list(0, 0)).at(-1)).toBe('Curtain call');
    expect(notes.get({ name: 'Curtain call' }).text).toBe('Twice');
  });

  it('refuses to create a note from an unknown uid', () => {
    expect(refusalOf(() => demoState().notes.set({ uid: '77' }, 'text')).message).toContain('give only a name');
  });
});
