// Smoke test of the package as users get it: pack it, install the tarball with npm into a fresh Node-RED user
// dir, start each Node-RED runtime asked for, and check that every stagelink node registers without load errors,
// that a deployed flow drives the simulator, that the drive token stays out of the flow export, and that the
// dropdown endpoints need a permission. Runtimes and npm's cache stay in `work`, reused by the next run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmInstall } from '@stagelink/registry-install';
import { startSimulator } from '@stagelink/simulator';
import { startNodeRed, writeSettings } from './node-red-process.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const NODE_TYPES = Object.keys(pkg['node-red'].nodes);

const log = (line) => console.log(`smoke: ${line}`);

/** npm, with the smoke test's own cache in `work`, tried again when the registry stalls. */
function npm(args, cwd, work) {
  npmInstall(args, { cwd, cache: join(work, 'npm-cache'), label: 'smoke' });
}

function pack(work) {
  const out = join(work, 'tarball');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] });
  const [tarball] = readdirSync(out).filter((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack wrote no tarball');
  return join(out, tarball);
}

/** Installs (once, then reuses) a Node-RED runtime in <work>/runtimes/<dir>. */
function runtime({ dir, packages }, work) {
  const root = join(work, 'runtimes', dir);
  const stamp = join(root, 'installed.json');
  if (existsSync(stamp) && JSON.parse(readFileSync(stamp, 'utf8')).packages.join() === packages.join()) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'stagelink-smoke-runtime', private: true }));
  log(`installing ${packages.join(' ')} (cached for the next run)`);
  npm(['install', ...packages], root, work);
  writeFileSync(stamp, JSON.stringify({ packages }));
  return root;
}

/** A fresh user dir with the tarball installed the way the palette manager installs a node. */
function userDirWith(tarball, name, work) {
  const userDir = join(work, 'users', name);
  rmSync(userDir, { recursive: true, force: true });
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'package.json'), JSON.stringify({ name: 'node-red-project', private: true, dependencies: {} }));
  npm(['install', '--save', '--omit=dev', '--engine-strict', tarball], userDir, work);
  // `./testing` is for the workspace only: the manifest users get must leave every file of the package reachable.
  const installed = JSON.parse(readFileSync(join(userDir, 'node_modules', pkg.name, 'package.json'), 'utf8'));
  if (installed.exports != null) throw new Error(`the packed package.json has an exports map: ${JSON.stringify(installed.exports)}`);
  return userDir;
}

// A user with every permission and one who may only read; the password is the smoke test's own.
const ADMIN_AUTH = `  adminAuth: {
    type: 'credentials',
    users: (username) => Promise.resolve(({ admin: { username: 'admin', permissions: '*' }, viewer: { username: 'viewer', permissions: 'read' } })[username] || null),
    authenticate: (username, password) => Promise.resolve(password === 'smoke-test' ? ({ admin: { username: 'admin', permissions: '*' }, viewer: { username: 'viewer', permissions: 'read' } })[username] || null : null),
  },`;

async function check(condition, message) {
  if (!(await condition)) throw new Error(message);
}

async function tokenFor(url, username) {
  const response = await fetch(`${url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'node-red-admin', grant_type: 'password', scope: username === 'admin' ? '*' : 'read', username, password: 'smoke-test' }),
  });
  if (!response.ok) throw new Error(`login as ${username} answered ${response.status}`);
  return (await response.json()).access_token;
}

async function smoke(target, tarball, sim, work) {
  const root = runtime(target, work);
  const userDir = userDirWith(tarball, target.dir, work);
  writeSettings(userDir, { credentialSecret: 'smoke-secret', extra: ADMIN_AUTH });
  const redJs = join(root, 'node_modules', 'node-red', 'red.js');
  const red = await startNodeRed({ node: target.node, redJs, userDir });
  try {
    const admin = { authorization: `Bearer ${await tokenFor(red.url, 'admin')}` };
    const api = async (path, init = {}) => {
      const response = await fetch(`${red.url}${path}`, { ...init, headers: { accept: 'application/json', ...admin, ...init.headers } });
      const text = await response.text();
      return { status: response.status, text, json: () => JSON.parse(text) };
    };

    // Every node type registers, enabled, with no load error.
    const sets = (await api('/nodes')).json().filter((set) => set.module === pkg.name);
    const types = sets.flatMap((set) => set.types);
    await check(NODE_TYPES.every((type) => types.includes(type)), `registered types ${JSON.stringify(types)}, expected ${NODE_TYPES.join(', ')}`);
    for (const set of sets) await check(set.enabled && !set.err && set.loaded !== false, `node set ${set.id}: ${typeof set.err === 'object' ? JSON.stringify(set.err) : (set.err ?? 'not loaded')}`);

    // The editor helpers every dialog loads are served from the installed package.
    const helpers = await api(`/resources/${pkg.name}/stagelink-editor.js`, { headers: { accept: '*/*' } });
    await check(helpers.status === 200 && helpers.text.includes('window.StagelinkEditor'), `GET the editor helpers answered ${helpers.status}`);

    // A flow drives the simulator; the token goes in as a credential and never comes back out.
    const driveToken = sim.drive.token;
    const flow = [
      { id: 'smoke-tab', type: 'tab', label: 'smoke' },
      { id: 'smoke-server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true },
      { id: 'smoke-drive', type: 'stagelink-drive', baseUrl: sim.drive.url, credentials: { token: driveToken } },
      { id: 'smoke-inject', type: 'inject', z: 'smoke-tab', props: [{ p: 'payload' }], payload: '', payloadType: 'date', repeat: '', once: false, wires: [['smoke-play']] },
      { id: 'smoke-play', type: 'stagelink-transport', z: 'smoke-tab', server: 'smoke-server', command: 'play', transport: 'main', transportType: 'str', wires: [[]] },
      { id: 'smoke-versions', type: 'stagelink-drive-version', z: 'smoke-tab', drive: 'smoke-drive', operation: 'list', wires: [[]] },
    ];
    const deployed = await api('/flows', { method: 'POST', headers: { 'content-type': 'application/json', 'node-red-deployment-type': 'full' }, body: JSON.stringify(flow) });
    await check(deployed.status === 200 || deployed.status === 204, `deploy answered ${deployed.status}: ${deployed.text}`);
    // The deploy answers before the new flows have started: retry until the inject node exists.
    await check(await eventually(async () => (await api('/inject/smoke-inject', { method: 'POST' })).status === 200), 'POST /inject never answered 200');
    await check(await eventually(() => sim.state.transports.list().find((t) => t.name === 'main')?.playmode === 'play'), 'the inject did not make the simulator play "main"');

    const exported = await api('/flows');
    await check(!exported.text.includes(driveToken), 'GET /flows contains the drive token');
    const credentials = await api('/credentials/stagelink-drive/smoke-drive');
    await check(credentials.json().has_token === true && !credentials.text.includes(driveToken), `credentials answer ${credentials.text}`);
    const files = readdirSync(userDir).filter((file) => file.startsWith('flows'));
    for (const file of files) await check(!readFileSync(join(userDir, file), 'utf8').includes(driveToken), `${file} contains the drive token in clear`);

    // The dropdown endpoints need a permission: none without a token, read is enough.
    const anonymous = await fetch(`${red.url}/stagelink/machines?server=smoke-server`);
    await check(anonymous.status === 401, `GET /stagelink/machines without a token answered ${anonymous.status}`);
    const viewer = await fetch(`${red.url}/stagelink/machines?server=smoke-server`, { headers: { authorization: `Bearer ${await tokenFor(red.url, 'viewer')}` } });
    await check(viewer.status === 200, `GET /stagelink/machines as a reader answered ${viewer.status}`);
    // A reader cannot have the runtime's environment read for a typed host, so no value of it comes back.
    const envHost = await fetch(`${red.url}/stagelink/machines?server=new-one&host=${encodeURIComponent('${PATH}')}`, { headers: { authorization: `Bearer ${await tokenFor(red.url, 'viewer')}` } });
    const envAnswer = await envHost.text();
    await check(envHost.status === 403 && !envAnswer.includes(process.env.PATH ?? '/usr/bin'), `GET /stagelink/machines?host=\${PATH} as a reader answered ${envHost.status}: ${envAnswer}`);
  } finally {
    await red.stop();
  }
  const output = red.output();
  const problems = output.split('\n').filter((line) => /\[(error|warn)\]/.test(line) && !/No flows found|Encrypted credentials not found|Projects disabled/i.test(line));
  if (problems.length > 0) throw new Error(`${target.name} logged problems:\n${problems.join('\n')}\n--- log ---\n${output}`);
}

async function eventually(condition, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * Runs the smoke test on each runtime: `packages` are what npm installs for it (`node-red@5`), `node` the Node
 * binary it runs on (default: this one). Rejects naming every runtime that failed, after trying them all.
 */
export async function smokeTest({ work, runtimes }) {
  mkdirSync(work, { recursive: true });
  const tarball = pack(work);
  log(`packed ${tarball}`);
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
  const failures = [];
  try {
    for (const target of runtimes) {
      try {
        sim.reset();
        await smoke({ node: process.execPath, ...target }, tarball, sim, work);
        log(`${target.name}: ${NODE_TYPES.length} node types registered, flow ran, token kept out of the export: ok`);
      } catch (error) {
        failures.push(`${target.name}: FAILED\n${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await sim.close();
  }
  if (failures.length > 0) throw new Error(failures.join('\n'));
}
