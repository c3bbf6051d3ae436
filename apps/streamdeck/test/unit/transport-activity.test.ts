import type { Transport } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { activityOf, asTransportList, levelSource } from '../../src/state/cues/transport-activity.js';

const transport = (name: string, uid: string, playmode: string, volume = 1): Transport =>
  ({ name, uid, playmode, volume, brightness: 1 }) as Transport;

const list = {
  transports: [transport('main', '1', 'stop', 0.3), transport('side', '2', 'loop section'), transport('lobby', '3', 'Play')],
  multitransports: [{ uid: '9', name: 'stage', engaged: true, transports: ['1', '2'] }],
};

describe('transport activity', () => {
  it('lights for Play, PlaySection and Loop in either vocabulary, and for nothing else', () => {
    const activity = (playmode: string) => activityOf({ transports: [transport('t', '1', playmode)], multitransports: [] }, 't');
    expect(['Play', 'PlaySection', 'Loop', 'play', 'loop section', 'play to end of section'].map(activity)).toEqual(Array(6).fill('playing'));
    expect(['Stop', 'stop', 'NotSet', 'paused', ''].map(activity)).toEqual(Array(5).fill('stopped'));
  });

  it('reads a transport, a multitransport and a missing one', () => {
    expect(activityOf(list, 'main')).toBe('stopped');
    expect(activityOf(list, 'lobby')).toBe('playing');
    expect(activityOf(list, 'stage')).toBe('playing');
    expect(activityOf(list, 'nowhere')).toBe('missing');
  });

  it("takes a multitransport's level from its first member", () => {
    expect(levelSource(list, 'stage')?.volume).toBe(0.3);
    expect(levelSource(list, 'nowhere')).toBeUndefined();
  });

  it('refuses answers without the shape of a transport list', () => {
    expect(asTransportList(undefined)).toBeUndefined();
    expect(asTransportList({ transports: [] })).toBeUndefined();
    expect(asTransportList(list)).toBe(list);
  });
});
