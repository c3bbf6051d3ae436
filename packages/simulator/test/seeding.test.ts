import { describe, expect, it } from 'vitest';
import { SIDE_SCREENS_UID } from '../src/state/seed/show.js';
import { MAX_UINT64_UID } from '../src/state/uids.js';
import { demoState } from './support/demo-state.js';

/** Everything the seed decides that a client can read. */
function snapshot(seed: number) {
  const state = demoState({ seed });
  return {
    session: state.machines.sessionInfo(),
    transports: state.transports.list(),
    health: state.health(),
    calibrations: state.mixedReality.spatialCalibrations(),
    media: state.media.list(''),
    adapters: state.hardware.adapters.list(),
  };
}

describe('seeded demo', () => {
  it('builds the same session from the same seed', () => {
    expect(snapshot(7)).toEqual(snapshot(7));
  });

  it('builds other uids and readings from another seed', () => {
    expect(snapshot(8).session.director?.uid).not.toBe(snapshot(7).session.director?.uid);
    expect(snapshot(8).adapters).not.toEqual(snapshot(7).adapters);
  });

  it('writes uids as decimal uint64 strings, with the largest uint64 and a uid above 2^53 seeded on purpose', () => {
    const state = demoState();
    const uids = [...state.transports.tracks().map((track) => track.uid), ...state.machines.all().map((machine) => machine.uid)];
    expect(uids.every((uid) => /^\d+$/.test(uid) && BigInt(uid) > 0n && BigInt(uid) <= BigInt(MAX_UINT64_UID))).toBe(true);
    expect(new Set(uids).size).toBe(uids.length);
    expect(state.transports.tracks().find((track) => track.uid === MAX_UINT64_UID)?.name).toBe('Finale');
    expect(state.transports.list().find((transport) => transport.uid === SIDE_SCREENS_UID)?.name).toBe('side screens');
  });

  it('lists the director, two actors and one understudy in demo', () => {
    const session = demoState().machines.sessionInfo();
    expect(session).toMatchObject({ isRunningSolo: false, director: { hostname: '127.0.0.1' } });
    expect(session.actors).toHaveLength(2);
    expect(session.understudies).toHaveLength(1);
  });
});
