// `pnpm start` (from the repository root): the simulator, and a Node-RED with the stagelink nodes and the dashboard
// installed and the example flows (the show-monitor dashboard among them) deployed against it. Data lives in
// .stagelink-run/ at the repository root (git-ignored) unless `--data-dir` names another. `--port`, `--sim-port`
// and `--drive-port` pick the ports (0, or one that is taken: any free port). `--dialect r34` (or
// STAGELINK_SIM_DIALECT=r34) makes the simulator answer as a shipping r34 director; the default speaks the API
// documents' words.
// Ctrl-C stops both.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemo } from './lib/start-demo.mjs';
import { startVenueBridge } from './lib/venue-bridge.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const portOption = (name, fallback) => Number(option(name) ?? fallback);

const runDir = resolve(option('data-dir') ?? join(repoRoot, '.stagelink-run'));
const userDir = join(runDir, 'node-red');

const say = (line = '') => console.log(line);

/** The port if it is free, else one the system picks. */
async function freePort(preferred) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(undefined));
      probe.listen(port, '127.0.0.1', () => {
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
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  demo = await startDemo({
    userDir,
    port: await freePort(portOption('port', 1880)),
    simPort: await freePort(portOption('sim-port', 8080)),
    drivePort: await freePort(portOption('drive-port', 8081)),
    credentialSecret: credentialSecret(),
    dialect: option('dialect'),
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
say(`    media server      ${sim.mediaServer.url}   (simulator, ${sim.options.dialect} dialect)`);
if (sim.smc) say(`    SMC               ${sim.smc.url}   (account ${sim.smc.username})`);
say(`    drive             ${sim.drive.url}   (simulator)`);
try {
  venue = await startVenueBridge(sim.mediaServer.url);
  if (venue) say(`    MQTT bridge       ${venue.broker}   (topics under ${venue.prefix}/#; mosquitto_sub -p ${venue.port} -t '${venue.prefix}/#' -v)`);
  else say('    MQTT bridge       not started: install Mosquitto to have it too (apt-get install mosquitto mosquitto-clients)');
} catch (error) {
  say(`    MQTT bridge       not started: ${error instanceof Error ? error.message : String(error)}`);
}
say('  The "stagelink: show control" tab is deployed: press its inject buttons to cue the simulator.');
say('  The dashboard shows the session\'s FPS and health and counts main\'s section down, and cues and fails over with its buttons.');
say(`  Data: ${runDir}`);
say('  Press Ctrl-C to stop.');
say('');
