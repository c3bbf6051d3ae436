import { reasonOf } from '@stagelink/core';
import { parseArgs } from 'node:util';
import { DIALECTS, MAX_BACK_TO_BACK_MS, OptionError, SCENARIOS, VENUE_MACHINES, VENUE_TRANSPORTS, type Dialect, type Scenario, type SimulatorOptions } from './options.js';

export const USAGE = `Usage: stagelink-sim [--host 127.0.0.1] [--port 8080] [--drive-port 8081] [--scenario demo|solo|session|venue] [--machines N] [--transports N] [--dialect spec|r34] [--seed N] [--back-to-back-ms N]

  --host        address to listen on, also this machine's hostname in the session (default 127.0.0.1)
  --port        media-server port; 0 picks a free port (default 8080)
  --drive-port  drive-service port; 0 picks a free port (default 8081)
  --scenario    demo (director with actors and an understudy), solo, session (every machine a server on
                127.0.0.2 to 127.0.0.5, one port), or venue (one director of --machines machines, serving
                their monitors) (default demo)
  --machines    venue only: machines in the session, the director included, 1 to 500 (default 20)
  --transports  venue only: transports in the session, 3 to 100 (default 3): main, side screens, lobby,
                then transport 4, ... each on the Main show set list
  --dialect     spec (the API documents' words) or r34 (as a shipping r34 director answers)
                (default spec, or $STAGELINK_SIM_DIALECT)
  --seed        seed of uids, readings and drive fixtures, 0 to 4294967295 (default 1)
  --dnssd       announce the director over DNS-SD on loopback
  --back-to-back-ms
                a live-update frame that arrives less than N ms after the socket's previous one, with no
                answer in between, is refused with {"error": "Invalid JSON"} and lost, as shipping
                directors do; 0 is off (default 20 with --dialect r34, 0 with spec)
  --help        show this text

Prints one JSON "ready" line, then JSON log lines. Stop with Ctrl-C (SIGINT) or SIGTERM.`;

export type CliCommand = { kind: 'run'; options: SimulatorOptions } | { kind: 'help' };

/** The CLI's own defaults; programmatic callers default to free ports instead. */
export const CLI_DEFAULTS = { port: 8080, drivePort: 8081 } as const;

/** Reads the command line; OptionError (exit code 2) for anything it cannot use. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'drive-port': { type: 'string' },
        scenario: { type: 'string' },
        machines: { type: 'string' },
        transports: { type: 'string' },
        dialect: { type: 'string' },
        seed: { type: 'string' },
        dnssd: { type: 'boolean' },
        'back-to-back-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new OptionError(reasonOf(error));
  }
  if (values['help'] === true) return { kind: 'help' };
  return {
    kind: 'run',
    options: {
      host: text(values['host'], '--host') ?? '127.0.0.1',
      port: whole(values['port'], '--port', 65535) ?? CLI_DEFAULTS.port,
      drivePort: whole(values['drive-port'], '--drive-port', 65535) ?? CLI_DEFAULTS.drivePort,
      scenario: scenario(values['scenario']),
      machines: whole(values['machines'], '--machines', VENUE_MACHINES.max),
      transports: whole(values['transports'], '--transports', VENUE_TRANSPORTS.max),
      dialect: dialect(values['dialect']),
      seed: whole(values['seed'], '--seed', 4294967295),
      dnssd: values['dnssd'] === true,
      backToBackMs: whole(values['back-to-back-ms'], '--back-to-back-ms', MAX_BACK_TO_BACK_MS),
    },
  };
}

function text(value: string | boolean | undefined, flag: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') throw new OptionError(`${flag} needs a value.`);
  return value;
}

function whole(value: string | boolean | undefined, flag: string, max: number): number | undefined {
  const given = text(value, flag);
  if (given === undefined) return undefined;
  if (!/^\d+$/.test(given) || Number(given) > max) throw new OptionError(`${flag} must be a whole number from 0 to ${max} (got "${given}").`);
  return Number(given);
}

function scenario(value: string | boolean | undefined): Scenario | undefined {
  const given = text(value, '--scenario');
  if (given === undefined) return undefined;
  if (!(SCENARIOS as readonly string[]).includes(given)) throw new OptionError(`--scenario must be one of ${SCENARIOS.join(', ')} (got "${given}").`);
  return given as Scenario;
}

function dialect(value: string | boolean | undefined): Dialect | undefined {
  const given = text(value, '--dialect');
  if (given === undefined) return undefined;
  if (!(DIALECTS as readonly string[]).includes(given)) throw new OptionError(`--dialect must be one of ${DIALECTS.join(', ')} (got "${given}").`);
  return given as Dialect;
}
