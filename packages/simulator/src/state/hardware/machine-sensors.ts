import type { VideoFormattingCard } from '@stagelink/core';
import type { Clock } from '../clock.js';
import { SeededRandom } from '../random.js';

/** The faults a test or a demo can put on one machine's hardware (`hardwareFault`). */
export const HARDWARE_FAULTS = ['fan', 'overheat', 'power', 'output'] as const;
export type HardwareFault = (typeof HARDWARE_FAULTS)[number];

/** The power flags a shipping SMC reports in `chassis/stats` and `chassis/power/status`. */
export const POWER_FLAGS = ['Power Overload', 'Main Power Fault', 'Power Control Fault'] as const;

/** What each fault does to the readings: a fan that stops, a CPU running hot, a main power fault, a card losing its signal. */
const FAN_THAT_STOPS = 'Fan 2';
const OVERHEATED_CELSIUS = 96;
const FLAG_OF_POWER_FAULT = 'Main Power Fault';
const CARD_STATUS_OF_OUTPUT_FAULT = 'no signal';

interface Drift {
  base: number;
  /** How far the slow swing goes either side, and its period in seconds. */
  swing: number;
  periodS: number;
  phase: number;
  /** Second-to-second noise either side. */
  noise: number;
  /** Readings come in steps of this (a fan tachometer reads in steps; temperatures in whole degrees). */
  step: number;
}

/**
 * One machine's fans and temperatures as its SMC reads them: each drifts slowly around a value of its own (a CPU
 * warming and cooling with the show's load over minutes, the room's air slower still, fans hunting a little) with
 * second-to-second noise, all drawn from the seed and the hostname, so the same seed reads the same at the same time.
 * Worked out from the clock when read: no timer.
 */
export class MachineSensors {
  readonly faults = new Set<HardwareFault>();
  readonly #seed: number;
  readonly #fans: [string, Drift][];
  readonly #temperatures: [string, Drift][];

  constructor(
    seed: number,
    hostname: string,
    private readonly clock: Clock,
  ) {
    this.#seed = mix(seed, hostname.toLowerCase());
    const random = new SeededRandom(this.#seed);
    const phase = () => random.next() * 2 * Math.PI;
    this.#fans = ['Fan 1', 'Fan 2'].map((name) => [name, { base: random.integer(4800, 6200), swing: 120, periodS: random.integer(40, 90), phase: phase(), noise: 40, step: 25 }]);
    this.#temperatures = [
      ['CPU Temp', { base: random.integer(40, 50), swing: 4, periodS: random.integer(240, 420), phase: phase(), noise: 0.6, step: 1 }],
      ['Inlet Temp', { base: random.integer(21, 26), swing: 1.5, periodS: random.integer(900, 1500), phase: phase(), noise: 0.3, step: 1 }],
    ];
  }

  /** The sensor part of `chassis/stats` now: `"5400 RPM"`, `"41 degrees C"`, and the power flags as words. */
  readings(): Record<string, string> {
    const seconds = this.clock.now() / 1000;
    const readings: Record<string, string> = {};
    for (const flag of POWER_FLAGS) readings[flag] = String(flag === FLAG_OF_POWER_FAULT && this.faults.has('power'));
    this.#fans.forEach(([name, drift], index) => {
      const rpm = name === FAN_THAT_STOPS && this.faults.has('fan') ? 0 : this.#at(drift, seconds, index);
      readings[name] = `${rpm} RPM`;
    });
    this.#temperatures.forEach(([name, drift], index) => {
      const celsius = this.#at(drift, seconds, 10 + index) + (name === 'CPU Temp' && this.faults.has('overheat') ? OVERHEATED_CELSIUS - drift.base : 0);
      readings[name] = `${celsius} degrees C`;
    });
    return readings;
  }

  /** The cards as this machine reports them: with an output fault, the first one has lost its signal. */
  cards(cards: readonly VideoFormattingCard[]): VideoFormattingCard[] {
    return cards.map((card, index) => ({ ...card, ...(index === 0 && this.faults.has('output') ? { status: CARD_STATUS_OF_OUTPUT_FAULT } : {}) }));
  }

  #at(drift: Drift, seconds: number, sensor: number): number {
    const second = Math.floor(seconds);
    const noise = (new SeededRandom(mix(this.#seed, `${sensor}:${second}`)).next() * 2 - 1) * drift.noise;
    const value = drift.base + drift.swing * Math.sin((2 * Math.PI * seconds) / drift.periodS + drift.phase) + noise;
    return Math.max(0, Math.round(value / drift.step) * drift.step);
  }
}

/** A seed for one machine (or one second of one sensor): the simulator's seed mixed with a name (FNV-1a). */
function mix(seed: number, name: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (const character of name) {
    hash ^= character.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
