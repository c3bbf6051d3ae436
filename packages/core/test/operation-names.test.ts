import { describe, expect, it } from 'vitest';
import { endpointList, endpointNamed, failoverOperationNamed, TRANSPORT_COMMAND_NAMES, transportCommandNamed } from '../src/index.js';

describe('one name per operation', () => {
  it('keeps every saved transport command name as it is', () => {
    for (const command of TRANSPORT_COMMAND_NAMES) expect(transportCommandNamed(command)).toBe(command);
  });

  it.each([
    ['gotoTrack', 'gototrack'],
    ['GOTOTRACK', 'gototrack'],
    ['playLoopSection', 'playloopsection'],
    ['setVolume', 'volume'],
    ['setBrightness', 'brightness'],
    ['setEngaged', 'engaged'],
    ['setSpeed', 'speed'],
    [' play ', 'play'],
  ])('reads the transport command %j as %s', (word, command) => {
    expect(transportCommandNamed(word)).toBe(command);
  });

  it.each([
    ['failoverMachine', 'failovermachine'],
    ['restoreMachine', 'restoremachine'],
    ['applyDefaultRouting', 'applydefaultrouting'],
    ['understudyTargets', 'understudytargets'],
    ['Settings', 'settings'],
  ])('reads the failover operation %j as %s', (word, operation) => {
    expect(failoverOperationNamed(word)).toBe(operation);
  });

  it.each([['toString'], ['constructor'], ['tracks'], ['gotoTrackk'], [''], [42], [undefined]])('names no operation for %j', (word) => {
    expect(transportCommandNamed(word)).toBeUndefined();
    expect(failoverOperationNamed(word)).toBeUndefined();
  });

  it('finds every endpoint by its catalogue id and by its method', () => {
    for (const spec of endpointList) {
      expect(endpointNamed(spec.id)).toBe(spec);
      expect(endpointNamed(`${spec.group}.${spec.operation}`)).toBe(spec);
    }
    expect(endpointNamed('transport.setBrightness')?.path).toBe('/api/session/transport/brightness');
    expect(endpointNamed('hardware.smc.clearAll')?.guarded).toBe(true);
  });

  it.each([['toString'], ['transport'], ['transport.'], ['hardware.smc'], [''], [7], [null]])('finds no endpoint for %j', (name) => {
    expect(endpointNamed(name)).toBeUndefined();
  });
});
