import type { Dialect } from '../../src/options.js';
import type { WireTransport } from '../../src/state/dialect.js';
import type { Clock } from '../../src/state/clock.js';
import { Refusal } from '../../src/state/refusal.js';
import { SessionState, type ModelScenario } from '../../src/state/session-state.js';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private time = Date.UTC(2025, 0, 1)) {}

  now(): number {
    return this.time;
  }

  advanceSeconds(seconds: number): void {
    this.time += seconds * 1000;
  }
}

/** The demo session's model, in the documents' dialect unless told otherwise. */
export function demoState(options: { scenario?: ModelScenario; seed?: number; clock?: Clock; dialect?: Dialect } = {}): SessionState {
  return new SessionState({
    scenario: options.scenario ?? 'demo',
    seed: options.seed ?? 1,
    hostname: '127.0.0.1',
    dialect: options.dialect ?? 'spec',
    clock: options.clock ?? new ManualClock(),
  });
}

export function transportNamed(state: SessionState, name: string): WireTransport {
  const transport = state.transports.list().find((candidate) => candidate.name === name);
  if (!transport) throw new Error(`The demo show has no transport "${name}".`);
  return transport;
}

/** Runs `act`, expecting a refusal; answers it so the test can check code and message. */
export function refusalOf(act: () => unknown): Refusal {
  try {
    act();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('Expected a refusal, but the call went through.');
}
