// `pnpm start` (from the repository root): the simulator, and a Node-RED with the stagelink nodes installed and
// the example flows deployed against it. Data lives in .stagelink-run/ at the repository root (git-ignored).
// Ctrl-C stops both.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '@stagelink/simulator';
import { startNodeRed, writeSettings } from './lib/node-red-process.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(packageDir, '..', '..');
const runDir = join(repoRoot, '.stagelink-run');
const userDir = join(runDir, 'node-red');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const EXAMPLES = ['show-control.json', 'asset-versions.json'];

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};

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

/** Installs the built package into the user dir the way npm would: the files it publishes, nothing else. */
function installNodes() {
  if (!existsSync(join(packageDir, 'dist', 'nodes', 'stagelink-server.js'))) {
    throw new Error('The nodes are not built: run `pnpm start` from the repository root (it builds them first).');
  }
  const target = join(userDir, 'node_modules', ...pkg.name.split('/'));
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of ['package.json', ...pkg.files]) {
    if (existsSync(join(packageDir, file))) cpSync(join(packageDir, file), join(target, file), { recursive: true });
  }
  const projectFile = join(userDir, 'package.json');
  const project = existsSync(projectFile) ? JSON.parse(readFileSync(projectFile, 'utf8')) : { name: 'node-red-project', private: true };
  project.dependencies = { ...project.dependencies, [pkg.name]: pkg.version };
  writeFileSync(projectFile, JSON.stringify(project, null, 2));
}

/** Kept across runs so the encrypted credentials (the drive token) can be read again. */
function credentialSecret() {
  const file = join(runDir, 'credential-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The example flows, pointed at this simulator. */
function exampleFlows(sim) {
  const nodes = EXAMPLES.flatMap((file) => JSON.parse(readFileSync(join(packageDir, 'examples', file), 'utf8')));
  const { driveId, contentId } = sim.drive.demoDrive;
  return nodes.map((node) => {
    if (node.type === 'stagelink-server') return { ...node, host: sim.mediaServer.url };
    if (node.type === 'stagelink-drive') return { ...node, baseUrl: sim.drive.url, credentials: { token: sim.drive.token } };
    if (node.type === 'stagelink-drive-version') return { ...node, driveId, contentId };
    return node;
  });
}

/** Deploys the examples, replacing earlier copies of them and keeping every other flow the user made. */
async function deployExamples(url, sim) {
  const examples = exampleFlows(sim);
  const ids = new Set(examples.map((node) => node.id));
  const current = await (await fetch(`${url}/flows`, { headers: { accept: 'application/json' } })).json();
  const kept = current.filter((node) => !ids.has(node.id) && !ids.has(node.z));
  const response = await fetch(`${url}/flows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'node-red-deployment-type': 'full' },
    body: JSON.stringify([...kept, ...examples]),
  });
  if (!response.ok) throw new Error(`Deploying the example flows answered ${response.status}: ${await response.text()}`);
}

async function startSim() {
  const port = await freePort(option('sim-port', 8080));
  const drivePort = await freePort(option('drive-port', 8081));
  return startSimulator({ host: '127.0.0.1', port, drivePort });
}

mkdirSync(userDir, { recursive: true });
installNodes();
const sim = await startSim();
// The demo's OLED button needs a login on the machine; the simulator stands in for it.
sim.state.hardware.loggedIn = true;
const settingsFile = writeSettings(userDir, { port: await freePort(option('port', 1880)), credentialSecret: credentialSecret(), palette: true });
const redJs = join(dirname(createRequire(import.meta.url).resolve('node-red/package.json')), 'red.js');

let red;
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  say('\nstagelink: stopping Node-RED and the simulator...');
  await red?.stop();
  await sim.close();
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  red = await startNodeRed({ redJs, userDir, settingsFile, echo: true });
  void red.exited.then(({ code }) => {
    if (!stopping) {
      say(`stagelink: Node-RED exited (code ${code}); stopping the simulator.`);
      void stop(code ?? 1);
    }
  });
  await deployExamples(red.url, sim);
} catch (error) {
  console.error(`stagelink: ${error instanceof Error ? error.message : String(error)}`);
  await stop(1);
}

say('');
say('  stagelink is running');
say(`    Node-RED editor   ${red.url}/`);
say(`    media server      ${sim.mediaServer.url}   (simulator)`);
say(`    drive             ${sim.drive.url}   (simulator)`);
say('  The "stagelink: show control" tab is deployed: press its inject buttons to cue the simulator.');
say(`  Data: ${runDir}`);
say('  Press Ctrl-C to stop.');
say('');
