// The `pnpm start` setup as one function: the simulator, and a Node-RED with the built stagelink nodes and the
// dashboard installed in `userDir` and the example flows deployed against the simulator. Used by start.mjs and,
// through `@stagelink/venue/testing`, the browser tests.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDependency, installPackage, startNodeRed, writeSettings } from '@stagelink/node-red/testing';
import { startSimulator } from '@stagelink/simulator';
import { installDashboard, nodesPackageDir, showMonitorPath } from './dashboard.mjs';
import { sessionHostnames, withMachineHostnames } from './session-hostnames.mjs';

const EXAMPLES = ['show-control.json', 'asset-versions.json', 'show-monitor-dashboard.json'];

/** The example flows, pointed at this simulator and its session's machines. */
function exampleFlows(sim, hostnames) {
  const nodes = EXAMPLES.flatMap((file) => JSON.parse(readFileSync(join(nodesPackageDir, 'examples', file), 'utf8')));
  const { driveId, contentId } = sim.drive.demoDrive;
  return nodes.map((node) => {
    if (node.type === 'tab') return withMachineHostnames(node, hostnames);
    if (node.type === 'stagelink-server') return { ...node, host: reachable(sim.mediaServer.url), ...smcOf(sim, hostnames.get('DIRECTOR')) };
    if (node.type === 'stagelink-drive') return { ...node, baseUrl: reachable(sim.drive.url), credentials: { token: sim.drive.token } };
    if (node.type === 'stagelink-drive-version') return { ...node, driveId, contentId };
    return node;
  });
}

/**
 * A listener's URL as a client on this machine reaches it: one listening on every interface (0.0.0.0, ::) is
 * reached on loopback, which is also what the flows keep working with when the network's address changes.
 */
export function reachable(url) {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  else if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.href.replace(/\/$/, '');
}

/**
 * An r34 machine's management controller and its account, for a server node: as the director's line under the
 * machines' SMCs (the examples' front screen names the director) and as the server's one SMC. Nothing for the
 * documents' machine, which serves the hardware family on its own address.
 */
function smcOf(sim, director) {
  if (!sim.smc) return {};
  return {
    smcHost: reachable(sim.smc.url),
    ...(director ? { smcs: `${director}=${reachable(sim.smc.url)}` } : {}),
    credentials: { smcUsername: sim.smc.username, smcPassword: sim.smc.password },
  };
}

/** Deploys the examples, replacing earlier copies of them and keeping every other flow the user made. */
async function deployExamples(url, sim) {
  const examples = exampleFlows(sim, await sessionHostnames(reachable(sim.mediaServer.url)));
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

/**
 * Starts the simulator and Node-RED (port 0 picks a free port for each), both listening on `host` (default
 * loopback), and deploys the examples. Resolves with both, the show-monitor dashboard's address and an idempotent
 * `stop()`; on failure stops whatever it started and rejects.
 */
export async function startDemo({ userDir, host = '127.0.0.1', port = 0, simPort = 0, drivePort = 0, credentialSecret, dialect, echo = false }) {
  mkdirSync(userDir, { recursive: true });
  installPackage(userDir);
  const dashboard = installDashboard(userDir);
  addDependency(userDir, dashboard.name, dashboard.version);
  const sim = await startSimulator({ host, port: simPort, drivePort, ...(dialect ? { dialect } : {}) });
  // The demo's OLED button needs a login on the machine: the documents' simulator takes the control action, an r34
  // one its management controller's account (given to the server node below).
  sim.state.hardware.loggedIn = true;
  let red;
  try {
    writeSettings(userDir, { port, credentialSecret, palette: true, settings: { uiHost: host } });
    red = await startNodeRed({ userDir, echo });
    await deployExamples(red.url, sim);
  } catch (error) {
    await red?.stop();
    await sim.close();
    throw error;
  }
  let stopped;
  const stop = () => (stopped ??= red.stop().then(() => sim.close()));
  return { red, sim, stop, dashboardUrl: `${red.url}${showMonitorPath()}` };
}
