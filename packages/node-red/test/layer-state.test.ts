import { NotOfferedError, TimeoutError, type LayersSnapshot } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { layerOperationNamed } from '../src/nodes/stagelink-renderstream/layer-operations.js';
import { layerReading, verdictOf } from '../src/nodes/stagelink-renderstream/layer-state.js';

const layers = [
  { uid: '11', name: 'Unreal Stage', workload: { state: 'running' } },
  { uid: '12', name: 'Notch FX', workload: { state: 'error', message: 'Notch FX: workload exited (code 3)' } },
];
const online: LayersSnapshot = { status: 'online', layers, readAt: 1 };

describe('layerReading', () => {
  it('finds a layer by its name as typed, or by its uid', () => {
    expect(layerReading(online, { name: 'Notch FX' })).toMatchObject({ layer: { uid: '12', name: 'Notch FX' }, status: 'online', state: 'error', message: 'Notch FX: workload exited (code 3)' });
    expect(layerReading(online, { uid: '11' })).toMatchObject({ layer: { uid: '11', name: 'Unreal Stage' }, state: 'running' });
    expect(layerReading(online, { name: 'notch fx' })).toMatchObject({ status: 'missing', state: null, listed: ['Unreal Stage', 'Notch FX'] });
  });

  it('keeps a stale reading\'s state, and knows none while offline', () => {
    expect(layerReading({ ...online, status: 'stale' }, { name: 'Unreal Stage' })).toMatchObject({ status: 'stale', state: 'running' });
    const problem = { message: 'no answer', error: new TimeoutError('no answer', 2000) };
    expect(layerReading({ status: 'offline', layers: [], problem }, { name: 'Unreal Stage' })).toMatchObject({ status: 'offline', state: null });
  });

  it('tells a director without RenderStream from one that cannot be read', () => {
    const problem = { message: 'not offered', error: new NotOfferedError('not offered', 404, undefined) };
    expect(layerReading({ status: 'offline', layers: [], problem }, { name: 'Unreal Stage' })).toMatchObject({ status: 'not-offered', state: null });
  });

  it('sees news in the state, the status or the director\'s words, not in a new read of the same', () => {
    const before = layerReading(online, { name: 'Unreal Stage' });
    expect(verdictOf(layerReading({ ...online, readAt: 2 }, { name: 'Unreal Stage' }))).toBe(verdictOf(before));
    expect(verdictOf(layerReading({ ...online, status: 'stale' }, { name: 'Unreal Stage' }))).not.toBe(verdictOf(before));
  });
});

describe('layerOperationNamed', () => {
  it('reads the operations in any case, and core\'s method names and the director\'s paths the same', () => {
    expect(['start', 'RESTART', 'restartLayers', 'synclayers', ' stop '].map(layerOperationNamed)).toEqual(['start', 'restart', 'restart', 'sync', 'stop']);
    expect(['reboot', 'failover', '', 'layers'].map(layerOperationNamed)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
