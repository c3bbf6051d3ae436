// `pnpm start` (from the repository root): the simulator, and a Node-RED with the stagelink nodes and the dashboard
// installed and the example flows (the show-monitor dashboard among them) deployed against it. Data lives in
// .stagelink-run/ at the repository root (git-ignored) unless `--data-dir` names another; the MQTT bridge records
// the show log into its show-log/ folder, and the command that draws its report is printed on the way out. The
// flags are in lib/start-options.mjs (`--help`). Ctrl-C stops everything.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reachable, startDemo } from './lib/start-demo.mjs';
import { isEveryInterface, isLoopback, parseStartArgs, START_USAGE, StartOptionError } from './lib/start-options.mjs';
import { startVenueBridge } from './lib/venue-bridge.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let options;
try {
  options = parseStartArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof StartOptionError)) throw error;
  console.error(`stagelink: ${error.message}\n\n${START_USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(START_USAGE);
  process.exit(0);
}

const runDir = resolve(options.dataDir ?? join(repoRoot, '.stagelink-run'));
const userDir = join(runDir, 'node-red');
const showLogDir = join(runDir, 'show-log');

const say = (line = '') => console.log(line);

/** A path as typed from the repository root, where `pnpm start` is run. */
const fromRoot = (path) => {
  const inside = relative(repoRoot, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
};

/** The port if it is free on the listen address, else one the system picks. */
async function freePort(preferred) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(undefined));
      probe.listen(port, options.listen, () => {
        const { port: bound } = probe.address();
        probe.close(() => resolve(bound));
      });
    });
  return (await tryPort(preferred)) ?? (await tryPort(0));
}

/** Kept across runs so the encrypted credentials (the drive token) can be read again. */
function credentialSecret() {
  const file = join(runDir, 'credential-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The addresses a desk on the network reaches a listener on every interface at. */
function networkAddresses() {
  return Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && entry.family === 'IPv4' && !entry.internal)
    .map((entry) => entry.address);
}

/** The command that draws the recorded show log, when the bridge has written one. */
function reportCommand() {
  if (!existsSync(showLogDir) || !readdirSync(showLogDir).some((file) => file.endsWith('.ndjson'))) return undefined;
  const cli = fromRoot(join(repoRoot, 'packages', 'bridge', 'dist', 'report-cli.mjs'));
  return `node ${cli} ${fromRoot(showLogDir)} -o ${fromRoot(join(runDir, 'report.html'))}`;
}

mkdirSync(runDir, { recursive: true });
let demo;
let venue;
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  say('\nstagelink: stopping Node-RED, the simulator and the MQTT bridge...');
  try {
    await venue?.close();
    await demo?.stop();
  } catch (error) {
    console.error(`stagelink: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
    code ||= 1;
  }
  const report = reportCommand();
  if (report) say(`stagelink: the show log is in ${fromRoot(showLogDir)}; draw it as a page (from the repository root):\n  ${report}`);
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  demo = await startDemo({
    userDir,
    host: options.listen,
    port: await freePort(options.port),
    simPort: await freePort(options.simPort),
    drivePort: await freePort(options.drivePort),
    credentialSecret: credentialSecret(),
    dialect: options.dialect,
    echo: true,
  });
} catch (error) {
  console.error(`stagelink: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const { red, sim, dashboardUrl } = demo;
void red.exited.then(({ code }) => {
  if (!stopping) {
    say(`stagelink: Node-RED exited (code ${code}); stopping the simulator.`);
    void stop(code ?? 1);
  }
});

say('');
say('  stagelink is running');
say(`    Node-RED editor   ${red.url}/`);
say(`    dashboard         ${dashboardUrl}   (show monitor)`);
say(`    media server      ${reachable(sim.mediaServer.url)}   (simulator, ${sim.options.dialect} dialect)`);
if (sim.smc) say(`    SMC               ${reachable(sim.smc.url)}   (account ${sim.smc.username})`);
say(`    drive             ${reachable(sim.drive.url)}   (simulator)`);
try {
  venue = await startVenueBridge(reachable(sim.mediaServer.url), { record: showLogDir });
  if (venue) {
    say(`    MQTT bridge       ${venue.broker}   (topics under ${venue.prefix}/#; mosquitto_sub -p ${venue.port} -t '${venue.prefix}/#' -v)`);
    say(`    show log          ${fromRoot(showLogDir)}   (recorded by the bridge; the report command is printed on Ctrl-C)`);
  } else say('    MQTT bridge       not started, and no show log: install Mosquitto to have them (apt-get install mosquitto mosquitto-clients)');
} catch (error) {
  say(`    MQTT bridge       not started: ${error instanceof Error ? error.message : String(error)}`);
}
if (!isLoopback(options.listen)) {
  const addresses = isEveryInterface(options.listen) ? networkAddresses() : [options.listen];
  const port = (url) => new URL(url).port;
  say('');
  say(`  WARNING: --listen ${options.listen} exposes the simulator and the Node-RED editor to the network, with no login:`);
  say('  anyone who reaches this machine can cue the simulator and run any code in the editor. Use it on a');
  say('  network you trust (a desk beside you), never on a show network with real machines.');
  for (const address of addresses) say(`    from a desk       editor http://${address}:${port(red.url)}/   media server http://${address}:${port(sim.mediaServer.url)}`);
}
say('  The "stagelink: show control" tab is deployed: press its inject buttons to cue the simulator.');
say('  The dashboard shows the session\'s FPS and health and counts main\'s section down, and cues and fails over with its buttons.');
say(`  Data: ${runDir}`);
say('  Press Ctrl-C to stop.');
say('');
