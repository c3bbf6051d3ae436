import { describe, expect, it } from 'vitest';
import { DEFAULT_HARDWARE_THRESHOLDS, hardwareThresholds, judgeReadings } from '../../src/hardware-health/judge.js';
import { hardwareFaultWord, snapshotOf } from '../../src/hardware-health/hardware-snapshot.js';
import { readCelsius, readFlag, readHardware, readRpm, type HardwareReadings } from '../../src/hardware-health/readings.js';
import { InvalidInputError } from '../../src/errors.js';

const healthy: HardwareReadings = {
  power: 'on',
  faults: [],
  temperatures: [
    { sensor: 'CPU Temp', celsius: 45 },
    { sensor: 'Inlet Temp', celsius: 24 },
  ],
  fans: [
    { sensor: 'Fan 1', rpm: 5400 },
    { sensor: 'Fan 2', rpm: 5100 },
  ],
  outputs: [{ slot: 1, type: 'DP-4', status: 'ok' }],
};

describe('reading the SMC strings', () => {
  it('reads fan speeds and temperatures as SMC firmwares write them', () => {
    expect(readRpm('Fan 1', '5400 RPM')).toBe(5400);
    expect(readRpm('Fan 1', ' 0 rpm ')).toBe(0);
    expect(readRpm('Fan 1', '5400')).toBe(5400);
    expect(readRpm('CPU Temp', '5400')).toBeUndefined();
    expect(readRpm('Fan 1', 'not present')).toBeUndefined();
    expect(readCelsius('CPU Temp', '41 degrees C')).toBe(41);
    expect(readCelsius('CPU Temp', '41.5 °C')).toBe(41.5);
    expect(readCelsius('CPU Temp', '41C')).toBe(41);
    expect(readCelsius('CPU Temp', '41')).toBe(41);
    expect(readCelsius('Inlet', '212 degrees F')).toBe(100);
    expect(readCelsius('Fan 1', '5400 RPM')).toBeUndefined();
    expect(readCelsius('CPU Temp', 'na')).toBeUndefined();
  });

  it('reads flags as booleans or words, and leaves a word it does not know unknown', () => {
    for (const set of [true, 'true', 'True', 'yes', 'asserted', 1]) expect(readFlag(set)).toBe(true);
    for (const clear of [false, 'false', 'No', 'deasserted', 'ok', 0]) expect(readFlag(clear)).toBe(false);
    for (const unknown of ['maybe', '', null, undefined, 2, {}]) expect(readFlag(unknown)).toBeUndefined();
  });

  it('sorts chassis stats into fans, temperatures, power and the fault flags that are set', () => {
    const readings = readHardware({
      stats: {
        'System Power': 'on',
        'Power Overload': 'false',
        'Main Power Fault': 'true',
        'Power Control Fault': false,
        'Fan 1': '5400 RPM',
        'Fan 2': '0 RPM',
        'CPU Temp': '41 degrees C',
        'Inlet Temp': '23 degrees C',
        'Firmware': '2.14.0',
      },
      outputs: [
        { slot: 1, type: 'DP-4', status: 'ok' },
        { slot: 2, type: 'SDI-4', status: 'no signal' },
        { type: 'no slot' },
      ],
    });
    expect(readings).toEqual({
      power: 'on',
      faults: ['Main Power Fault'],
      temperatures: [
        { sensor: 'CPU Temp', celsius: 41 },
        { sensor: 'Inlet Temp', celsius: 23 },
      ],
      fans: [
        { sensor: 'Fan 1', rpm: 5400 },
        { sensor: 'Fan 2', rpm: 0 },
      ],
      outputs: [
        { slot: 1, type: 'DP-4', status: 'ok' },
        { slot: 2, type: 'SDI-4', status: 'no signal' },
      ],
    });
  });

  it('takes power and flags from the power status, which wins over the stats, in either answer shape', () => {
    const flags = readHardware({ stats: { 'System Power': 'on' }, powerStatus: { 'System Power': 'off', 'Power Overload': 'Yes', 'Main Power Fault': false } });
    expect(flags.power).toBe('off');
    expect(flags.faults).toEqual(['Power Overload']);
    expect(readHardware({ stats: {}, powerStatus: { message: 'Chassis Power is on' } }).power).toBe('on');
    expect(readHardware({ stats: { 'Fan 1': '5000 RPM' } }).power).toBeUndefined();
  });

  it('reads nothing from answers that are not in the API shape, rather than guess', () => {
    expect(readHardware({ stats: 'oops', powerStatus: [1, 2], outputs: { slot: 1 } })).toEqual({ power: undefined, faults: [], temperatures: [], fans: [], outputs: [] });
  });
});

describe('judging the readings', () => {
  it('is ok with readings inside every line', () => {
    expect(judgeReadings(healthy)).toEqual({ severity: 'ok', reasons: [] });
  });

  it('calls a stopped fan and one under its floor errors, in words', () => {
    const verdict = judgeReadings({ ...healthy, fans: [{ sensor: 'Fan 1', rpm: 0 }, { sensor: 'Fan 2', rpm: 600 }] });
    expect(verdict).toEqual({ severity: 'error', reasons: ['Fan 1 has stopped (0 RPM)', 'Fan 2 runs at 600 RPM, under its 1000 RPM floor'] });
  });

  it('warns over the warning line and errs over the error line', () => {
    expect(judgeReadings({ ...healthy, temperatures: [{ sensor: 'CPU Temp', celsius: 85 }] })).toEqual({
      severity: 'warning',
      reasons: ['CPU Temp is at 85 °C, over its 80 °C warning line'],
    });
    expect(judgeReadings({ ...healthy, temperatures: [{ sensor: 'CPU Temp', celsius: 95 }] })).toEqual({
      severity: 'error',
      reasons: ['CPU Temp is at 95 °C, over its 90 °C error line'],
    });
  });

  it('calls a set power flag an error, an output card not ok and power off warnings, errors first', () => {
    const verdict = judgeReadings({ ...healthy, power: 'off', faults: ['Main Power Fault'], outputs: [{ slot: 3, type: 'SDI-4', status: 'no signal' }] });
    expect(verdict).toEqual({
      severity: 'error',
      reasons: ['Main Power Fault is set', 'the output card in slot 3 (SDI-4) reports no signal', 'the machine is powered off'],
    });
  });

  it('takes a user changes to the thresholds, per sensor too', () => {
    const thresholds = hardwareThresholds({ minFanRpm: 6000, sensors: { 'inlet temp': { warningCelsius: 20, errorCelsius: 30 } } });
    expect(judgeReadings(healthy, thresholds)).toEqual({
      severity: 'error',
      reasons: ['Fan 1 runs at 5400 RPM, under its 6000 RPM floor', 'Fan 2 runs at 5100 RPM, under its 6000 RPM floor', 'Inlet Temp is at 24 °C, over its 20 °C warning line'],
    });
    expect(hardwareThresholds()).toEqual(DEFAULT_HARDWARE_THRESHOLDS);
  });

  it('refuses thresholds typed wrong when they are given', () => {
    expect(() => hardwareThresholds({ warningCelsius: 95 })).toThrow(/warning line must come first/);
    expect(() => hardwareThresholds({ minFanRpm: '1000' as unknown as number })).toThrow(InvalidInputError);
    expect(() => hardwareThresholds({ sensors: { 'CPU Temp': { errorCelsius: Number.NaN } } })).toThrow(/sensors\["CPU Temp"\]\.errorCelsius/);
  });
});

describe('a snapshot', () => {
  it('shows no reading of a machine whose SMC is offline, and says why', () => {
    const snapshot = snapshotOf('ACTOR01', { status: 'offline', problem: 'the management controller did not answer within 1 s' }, DEFAULT_HARDWARE_THRESHOLDS);
    expect(snapshot).toEqual({
      machine: 'ACTOR01',
      status: 'offline',
      power: undefined,
      faults: [],
      temperatures: [],
      fans: [],
      outputs: [],
      severity: 'error',
      reasons: ['the management controller did not answer within 1 s'],
    });
    expect(hardwareFaultWord(snapshot)).toBe('OFFLINE');
  });

  it('keeps the last readings of a stale SMC with when they were read, at least a warning', () => {
    const snapshot = snapshotOf('ACTOR01', { status: 'stale', readings: healthy, readAt: 1000, problem: 'answered 500' }, DEFAULT_HARDWARE_THRESHOLDS);
    expect(snapshot).toMatchObject({ status: 'stale', severity: 'warning', reasons: ['answered 500'], readAt: 1000, fans: healthy.fans });
  });

  it('names the fault in a word for a tile', () => {
    const word = (readings: Partial<HardwareReadings>) => hardwareFaultWord(snapshotOf('A', { status: 'online', readings: { ...healthy, ...readings }, readAt: 0 }, DEFAULT_HARDWARE_THRESHOLDS));
    expect(word({})).toBe('OK');
    expect(word({ fans: [{ sensor: 'Fan 1', rpm: 0 }] })).toBe('FAN');
    expect(word({ temperatures: [{ sensor: 'CPU Temp', celsius: 99 }] })).toBe('HOT');
    expect(word({ faults: ['Power Overload'] })).toBe('POWER');
    expect(word({ outputs: [{ slot: 1, type: 'DP-4', status: 'no signal' }] })).toBe('OUTPUT');
  });
});
