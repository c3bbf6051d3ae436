// `pnpm start`'s command line, read strictly: a mistyped flag is an error with the usage, never a default taken
// in silence. START_OPTIONS is also what the docs check reads to know which flags `pnpm start` takes.
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';

export const START_USAGE = `Usage: pnpm start [--listen 127.0.0.1] [--port 1880] [--sim-port 8080] [--drive-port 8081]
                 [--data-dir .stagelink-run] [--dialect spec|r34]

  --listen <address>   the address the simulator and the Node-RED editor listen on (default 127.0.0.1, this
                       machine only); 0.0.0.0 lets a desk on the network reach both, with no login
  --port <n>           the Node-RED editor and dashboard (default 1880)
  --sim-port <n>       the simulated media server (default 8080)
  --drive-port <n>     the simulated cloud drive (default 8081)
                       A port that is taken, or 0, becomes any free port.
  --data-dir <dir>     Node-RED's files and the show log (default .stagelink-run at the repository root)
  --dialect spec|r34   the simulator's words: the API documents' (default, or $STAGELINK_SIM_DIALECT) or a
                       shipping r34 director's
  --help               this text`;

export const START_OPTIONS = {
  listen: { type: 'string' },
  port: { type: 'string' },
  'sim-port': { type: 'string' },
  'drive-port': { type: 'string' },
  'data-dir': { type: 'string' },
  dialect: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export class StartOptionError extends Error {}

/** `{ help: true }`, or the options with their defaults; StartOptionError names what cannot be used. */
export function parseStartArgs(argv) {
  // `pnpm start -- --port 0` hands the separator on.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  let values;
  try {
    ({ values } = parseArgs({ args, options: START_OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new StartOptionError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };
  const listen = values.listen ?? '127.0.0.1';
  if (listen !== 'localhost' && isIP(listen) === 0) throw new StartOptionError(`--listen takes an IP address such as 127.0.0.1, 0.0.0.0 or 192.168.1.20 (got ${JSON.stringify(listen)}).`);
  return {
    help: false,
    listen,
    port: port(values.port, '--port', 1880),
    simPort: port(values['sim-port'], '--sim-port', 8080),
    drivePort: port(values['drive-port'], '--drive-port', 8081),
    dataDir: values['data-dir'],
    dialect: values.dialect,
  };
}

function port(text, flag, fallback) {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > 65535) throw new StartOptionError(`${flag} takes a port from 0 to 65535 (got ${JSON.stringify(text)}).`);
  return Number(text);
}

/** Only this machine can reach a loopback address; anything else is reachable from a network. */
export function isLoopback(address) {
  return address === 'localhost' || address === '::1' || address.startsWith('127.');
}

/** 0.0.0.0 and :: listen on every interface of the machine. */
export function isEveryInterface(address) {
  return address === '0.0.0.0' || address === '::';
}
