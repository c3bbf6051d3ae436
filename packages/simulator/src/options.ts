import type { LogSink } from './log.js';
import type { Clock } from './state/clock.js';
import type { ModelScenario } from './state/session-state.js';

/**
 * - `demo`: this process is the director of a session that also lists two actors and an understudy.
 * - `solo`: `isRunningSolo` true, no director.
 * - `session`: one server per machine on loopback aliases 127.0.0.2 to 127.0.0.5, all on one port; `host` is
 *   ignored there.
 * - `venue`: this process is the director of a session of `machines` machines, serving every other machine's
 *   monitors as remote monitors, as a venue's director does, and of `transports` transports.
 */
export type Scenario = 'demo' | 'solo' | 'session' | 'venue';

export const SCENARIOS: readonly Scenario[] = ['demo', 'solo', 'session', 'venue'];

/** How many machines a `venue` session has, the director included. */
export const VENUE_MACHINES = { default: 20, min: 1, max: 500 } as const;

/** How many transports a `venue` session has, the three of the demo show included. */
export const VENUE_TRANSPORTS = { default: 3, min: 3, max: 100 } as const;

/**
 * How the simulated machines speak: `spec` uses exactly the words of the API documents; `r34` speaks as a
 * shipping r34 director does where it differs from them (see the README's "Dialects").
 */
export type Dialect = 'spec' | 'r34';

export const DIALECTS: readonly Dialect[] = ['spec', 'r34'];

/** Sets the default dialect of every simulator a process starts, so a whole test suite can run against either. */
export const DIALECT_ENV = 'STAGELINK_SIM_DIALECT';

export interface SimulatorOptions {
  /** Address to listen on (default 127.0.0.1); it is also this machine's hostname in the session. */
  host?: string;
  /** Media-server port; 0 (the default here, 8080 for the CLI) picks a free port. */
  port?: number;
  /** Drive-service port; 0 (the default here, 8081 for the CLI) picks a free port. */
  drivePort?: number;
  scenario?: Scenario;
  /** `venue` only: the machines of the session, the director included (default 20, 1 to 500). */
  machines?: number;
  /**
   * `venue` only: the transports of the session (default 3, 3 to 100): the demo show's three, then `transport 4`,
   * ... each on the Main show set list.
   */
  transports?: number;
  /** Default `spec`, or the value of the STAGELINK_SIM_DIALECT environment variable. */
  dialect?: Dialect;
  /** Seed of the PRNG behind uids, readings and drive fixtures (default 1). */
  seed?: number;
  /** Where log lines go; silent by default. */
  log?: LogSink;
  /** Time source of the session model, for tests that move time by hand. */
  clock?: Clock;
  /**
   * Announce the session over DNS-SD, on loopback only, with the dialect's names: the documents' `_svcdirector._tcp`
   * and `_svcapi._http._tcp`, or r34's `_d3director._tcp`, `_d3host._tcp` and `d3api` of `_http._tcp`.
   */
  dnssd?: boolean;
  /**
   * A client frame that arrives less than this many ms after the socket's previous one, with no answer in between,
   * is refused with `{"error": "Invalid JSON"}` and lost, as shipping directors do. 0 is off. Default: 20 in the
   * `r34` dialect, 0 in `spec` (BACK_TO_BACK_MS).
   */
  backToBackMs?: number;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  drivePort: number;
  scenario: ModelScenario;
  /** The machines of a `venue` session; undefined in the other scenarios. */
  machines?: number;
  /** The transports of a `venue` session; undefined in the other scenarios. */
  transports?: number;
  dialect: Dialect;
  seed: number;
  /** The live stream's back-to-back window at start and after a reset; 0 is off. */
  backToBackMs: number;
}

export const DEFAULT_SEED = 1;

/**
 * The back-to-back window of each dialect: a shipping r34 director loses a frame that arrives right behind another
 * one it has not answered; the documents say nothing of it.
 */
export const BACK_TO_BACK_MS: Readonly<Record<Dialect, number>> = { spec: 0, r34: 20 };

/** The longest back-to-back window an option or control action may set: a minute. */
export const MAX_BACK_TO_BACK_MS = 60_000;

/** A flag or option that cannot be used; the CLI exits with code 2. */
export class OptionError extends Error {
  override name = 'OptionError';
}

export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  const scenario = options.scenario ?? 'demo';
  if (!SCENARIOS.includes(scenario)) throw new OptionError(`Unknown scenario "${String(scenario)}": use ${SCENARIOS.join(', ')}.`);
  const dialect = options.dialect ?? process.env[DIALECT_ENV] ?? 'spec';
  if (!(DIALECTS as readonly string[]).includes(dialect)) {
    throw new OptionError(`Unknown dialect "${String(dialect)}"${options.dialect ? '' : ` (from ${DIALECT_ENV})`}: use ${DIALECTS.join(', ')}.`);
  }
  return {
    host: options.host ?? '127.0.0.1',
    port: checkInteger(options.port ?? 0, 'port', 0, 65535),
    drivePort: checkInteger(options.drivePort ?? 0, 'drive port', 0, 65535),
    scenario,
    ...venueSize(scenario, options.machines, options.transports),
    dialect: dialect as Dialect,
    seed: checkInteger(options.seed ?? DEFAULT_SEED, 'seed', 0, 4294967295),
    backToBackMs: checkInteger(options.backToBackMs ?? BACK_TO_BACK_MS[dialect as Dialect], 'back-to-back window (ms)', 0, MAX_BACK_TO_BACK_MS),
  };
}

/**
 * This machine's hostname in the session: the address it listens on, so a client following
 * `director.hostname` on the same port reaches it; a wildcard address becomes loopback.
 */
export function sessionHostname(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
}

/** Machine and transport counts belong to the venue scenario only: elsewhere the scenario fixes the session. */
function venueSize(scenario: Scenario, machines: number | undefined, transports: number | undefined): { machines?: number; transports?: number } {
  if (scenario !== 'venue') {
    const given = machines !== undefined ? 'machines' : transports !== undefined ? 'transports' : undefined;
    if (given) throw new OptionError(`A number of ${given} applies to the venue scenario only (the ${scenario} scenario has its own session): add --scenario venue.`);
    return {};
  }
  return {
    machines: checkInteger(machines ?? VENUE_MACHINES.default, 'number of machines', VENUE_MACHINES.min, VENUE_MACHINES.max),
    transports: checkInteger(transports ?? VENUE_TRANSPORTS.default, 'number of transports', VENUE_TRANSPORTS.min, VENUE_TRANSPORTS.max),
  };
}

function checkInteger(value: number, what: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new OptionError(`The ${what} must be a whole number from ${min} to ${max} (got ${value}).`);
  return value;
}
