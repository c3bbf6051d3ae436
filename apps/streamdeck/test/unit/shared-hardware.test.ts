import type { HardwareSnapshot, HardwareWatchOptions, SmcTarget } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { hardwareSetting } from '../../src/settings.js';
import { SharedHardware } from '../../src/state/connection/shared-hardware.js';

/** A stand-in for core's hardwareOf: records each watch opened and lets the test tell its snapshots. */
function standIn() {
  const opened: { smc: SmcTarget; options?: HardwareWatchOptions; tell: (snapshot: HardwareSnapshot) => void; closed: boolean }[] = [];
  const server = {
    hardwareOf: (smc: SmcTarget) => ({
      watch: (onChange: (snapshot: HardwareSnapshot) => void, options?: HardwareWatchOptions) => {
        const entry = { smc, options, tell: onChange, closed: false };
        opened.push(entry);
        return { current: undefined, close: () => void (entry.closed = true) };
      },
    }),
  } as unknown as ConstructorParameters<typeof SharedHardware>[0];
  return { server, opened };
}

const logger = { warn: () => undefined, error: () => undefined, debug: () => undefined };
const fan: HardwareSnapshot = { machine: 'http://10.0.1.6', status: 'online', power: 'on', faults: [], temperatures: [], fans: [{ sensor: 'Fan 2', rpm: 0 }], outputs: [], severity: 'error', reasons: ['Fan 2 has stopped (0 RPM)'] };

describe('the hardware watches a server shares with its keys', () => {
  it('opens one watch per machine for every key, tells a key that comes later at once, and closes with the last key', () => {
    const { server, opened } = standIn();
    const shared = new SharedHardware(server, logger);
    const first: HardwareSnapshot[] = [];
    const second: HardwareSnapshot[] = [];
    const stopFirst = shared.watch('ACTOR01', { host: 'http://10.0.1.6' }, 15_000, (snapshot) => first.push(snapshot));
    opened[0]?.tell(fan);
    const stopSecond = shared.watch('actor01', { host: 'http://10.0.1.6' }, 15_000, (snapshot) => second.push(snapshot));

    expect(opened).toHaveLength(1);
    expect(opened[0]?.options).toEqual({ everyMs: 15_000 });
    expect(first).toEqual([fan]);
    expect(second).toEqual([fan]);

    stopFirst();
    stopFirst();
    expect(opened[0]?.closed).toBe(false);
    stopSecond();
    expect(opened[0]?.closed).toBe(true);
    expect(shared.watchCount).toBe(0);
  });

  it('closes every watch with the client and opens none after', () => {
    const { server, opened } = standIn();
    const shared = new SharedHardware(server, logger);
    shared.watch('ACTOR01', { host: 'http://10.0.1.6' }, 15_000, () => undefined);
    shared.watch('ACTOR02', { host: 'http://10.0.1.7' }, 15_000, () => undefined);
    shared.close();
    expect(opened.map((entry) => entry.closed)).toEqual([true, true]);
    shared.watch('ACTOR03', { host: 'http://10.0.1.8' }, 15_000, () => undefined);
    expect(opened).toHaveLength(2);
  });
});

describe('the management controllers of the global settings', () => {
  it('reads one HOSTNAME=address a line, or a hand-edited object, every 15 s unless told', () => {
    expect(hardwareSetting({ smcs: 'ACTOR01=10.0.1.6\nACTOR02=10.0.1.7:8080' })).toEqual({
      smcs: { ACTOR01: { host: 'http://10.0.1.6' }, ACTOR02: { host: 'http://10.0.1.7:8080' } },
      everyMs: 15_000,
    });
    expect(hardwareSetting({ smcs: { ACTOR01: '10.0.1.6' }, hardwareEvery: '2.5' })).toEqual({ smcs: { ACTOR01: { host: 'http://10.0.1.6' } }, everyMs: 2500 });
    expect(hardwareSetting({})).toEqual({ smcs: {}, everyMs: 15_000 });
  });

  it('names what to fix: a line that is not HOSTNAME=address, a period under a second or not a number', () => {
    expect(() => hardwareSetting({ smcs: 'ACTOR01 10.0.1.6' })).toThrow(/HOSTNAME=address/);
    expect(() => hardwareSetting({ smcs: 'ACTOR01=10.0.1.6', hardwareEvery: 0.2 })).toThrow(/at least 1 s/);
    expect(() => hardwareSetting({ smcs: 'ACTOR01=10.0.1.6', hardwareEvery: 'often' })).toThrow(/number of seconds/);
  });
});
