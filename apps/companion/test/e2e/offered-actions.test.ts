/**
 * Actions against what the director's own description offers. The documents' dialect describes API 1.0.0 without
 * the transport speed and RenderStream commands: those actions say so in their names and descriptions, and a
 * press fails unsent with core's words, logged. r34 describes API 2.0.3 with both: nothing is marked, and speed
 * goes once the project allows it.
 */
import { variableIdOf } from '@stagelink/core';
import { DIALECT_ENV, type LogEntry, type Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { configFor, control, startModule, startSim, untilReady } from './session.js';

const dialect = process.env[DIALECT_ENV] === 'r34' ? 'r34' : 'spec';
const DESCRIPTION = '/docs/session/d3api.swagger.json';

describe('actions the director does not offer', () => {
  let sim: Simulator;
  let host: CompanionHost;
  /** The paths of the requests the simulator answered, in order. */
  let paths: string[];
  const reads = () => paths.filter((path) => path === DESCRIPTION).length;

  beforeEach(async () => {
    paths = [];
    sim = await startSim(0, { log: (entry: LogEntry) => (entry.event === 'request' ? paths.push(String(entry['path'])) : undefined) });
    host = await startModule(sim);
    await untilReady(host);
    await host.waitFor(() => reads() > 0, 'the description read');
  });

  afterEach(async () => {
    await host.destroy();
    await sim.close();
  });

  describe.runIf(dialect === 'spec')('on a director whose description lacks them', () => {
    it('names them as not offered, and a press fails unsent with the reason, logged', async () => {
      await host.waitFor(() => host.action('speed').name.includes('not offered'), 'the speed action marked');
      expect(host.action('speed').name).toBe('Transport: Set speed (not offered by this director, API 1.0.0)');
      expect(host.action('speed').description).toMatch(/API 1\.0\.0 offers no `transport\/speed`/);
      expect(host.action('renderstream_restart').name).toBe('RenderStream: restart layer (not offered by this director, API 1.0.0)');
      expect(host.action('play').name).toBe('Transport: Play');
      expect(host.action('play').description).toBeUndefined();

      const transport = sim.state.transports.list()[0]?.name ?? '';
      const result = await host.executeAction('speed', { transport, speed: 2 });

      expect(result.success).toBe(false);
      expect(result.errorMessage).toMatch(/POST \/api\/session\/transport\/speed was not sent: this director's API 1\.0\.0 offers no `transport\/speed`/);
      expect(paths.filter((path) => path.endsWith('/transport/speed'))).toEqual([]);
      const logged = host.logs.filter(({ message }) => message.includes('offers no `transport/speed`'));
      expect(logged.map(({ level }) => level)).toEqual(['warn']);
      expect(logged[0]?.message).toMatch(/^Transport: Set speed \(not offered by this director, API 1\.0\.0\) failed: POST \/api\/session\/transport\/speed was not sent/);
      await host.runAction('play', { transport });
    });

    it('reads the description again on a new connection, never at a press', async () => {
      const transport = sim.state.transports.list()[0]?.name ?? '';
      await host.waitFor(() => host.action('speed').name.includes('not offered'), 'the speed action marked');
      const before = reads();
      for (let press = 0; press < 3; press += 1) await host.runAction('play', { transport });
      expect(reads()).toBe(before);

      await host.configUpdated(configFor(sim, { frameRate: 30 }));

      await host.waitFor(() => reads() > before, 'the description read again');
      await host.waitFor(() => host.action('speed').name.includes('not offered'), 'the speed action marked again');
    });
  });

  describe.runIf(dialect === 'r34')('on a director whose description offers them', () => {
    it('marks none of them, and speed goes once the project allows it', async () => {
      const transport = sim.state.transports.list()[0]?.name ?? '';
      // The layers are read after the description (both at the start): its answer has been shown by then.
      await host.waitFor(() => host.variables.get(`layer_${variableIdOf('Unreal Stage')}_state`) === 'running', 'the layers read');
      await host.runAction('play', { transport });
      expect(host.action('speed').name).toBe('Transport: Set speed');
      expect(host.action('speed').description).toBeUndefined();
      expect(host.action('renderstream_restart').name).toBe('RenderStream: restart layer');

      await control(sim, { action: 'projectOption', name: 'enableTransportSpeedControl', on: true });
      await host.runAction('speed', { transport, speed: 2 });

      expect(paths.filter((path) => path.endsWith('/transport/speed'))).toHaveLength(1);
    });
  });
});
