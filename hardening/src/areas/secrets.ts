import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { RunContext } from '../context.js';
import { AdminApi } from '../node-red/admin-api.js';
import { driveNode, harnessTab, serverNode, type Probe } from '../node-red/flows.js';
import { countOutcome } from '../node-red/outcomes.js';
import { observed, sendCommand, type Outcome } from '../node-red/probe-client.js';
import { VIEWER_USER } from '../node-red/runtime.js';
import type { NodeRedSession } from '../node-red/session.js';
import { Tally } from '../report/tally.js';
import { simControl } from '@stagelink/simulator';
import { inPool, waitUntil } from '../support/time.js';

const TAB = 'hardening-secrets';
/** A second organisation's token: wrong for the simulated drive, so every use of it fails with a 401. */
const CANARY_TOKEN = 'hardening-canary-7f3e9b2a41c6d8e5';
/** Not a secret: proves that what debug nodes print reaches the scanned log. */
const MARKER = 'hardening-log-marker-5d1c';

/**
 * The drive token, and a second (wrong) one, through every path a drive node has: answers, 401s, 404s, 5xx,
 * timeouts, a malformed address, and a server that echoes the Authorization header back in its errors. Neither
 * may appear in Node-RED's log (debug level, debug nodes printing every output and error to it), a status
 * text, an error reaching Catch, the flows files or any export. Then the admin API with editor auth on: the
 * editor's endpoints (dropdowns, director line) and the credentials answer nobody without a valid login,
 * readers may read, only admins deploy.
 */
export async function secrets(context: RunContext, session: NodeRedSession): Promise<Tally> {
  const tally = new Tally('node-red: secrets & admin auth');
  const token = session.sim.drive.token;
  session.log.watchFor(CANARY_TOKEN);
  const echo = await startEchoServer();
  try {
    await deploySecretsFlow(session, echo.url);
    await driveTraffic(session, tally);
    await checkObserved(session, tally, [token, CANARY_TOKEN]);
    checkFiles(session, tally, [token, CANARY_TOKEN]);
    await checkExports(session, tally, [token, CANARY_TOKEN]);
    await checkLogIsScanned(session, tally);
    for (const leak of session.log.leaks([MARKER])) tally.finding(`a drive token appeared in Node-RED's log: ${leak}`);
    await checkAdminAuth(session, tally);
  } finally {
    await echo.close();
  }
  context.progress(`secrets: ${tally.inputs} checks`);
  return tally.finish();
}

function probes(session: NodeRedSession): Probe[] {
  const { driveId, contentId } = session.sim.drive.demoDrive;
  const version = (drive: string, extra: Record<string, unknown> = {}): Probe['node'] => ({ type: 'stagelink-drive-version', drive, operation: 'list', driveId, contentId, ...extra });
  return [
    { id: 'secret-good', node: version('secret-drive') },
    { id: 'secret-canary', node: version('secret-drive-canary') },
    { id: 'secret-echo', node: version('secret-drive-echo') },
    { id: 'secret-bad-url', node: version('secret-drive-bad-url') },
    { id: 'secret-status', node: { type: 'stagelink-status', server: 'secret-server', operation: 'health' } },
  ];
}

async function deploySecretsFlow(session: NodeRedSession, echoUrl: string): Promise<void> {
  const { sim } = session;
  const generation = session.nextGeneration();
  const flows = [
    serverNode('secret-server', sim.mediaServer.url),
    driveNode('secret-drive', sim.drive.url, sim.drive.token),
    driveNode('secret-drive-canary', sim.drive.url, CANARY_TOKEN),
    driveNode('secret-drive-echo', echoUrl, sim.drive.token),
    // Nothing listens there: every call fails to connect (the token stays in the credentials, not the address).
    driveNode('secret-drive-bad-url', 'http://127.0.0.1:1/api', sim.drive.token),
    ...harnessTab({ tab: TAB, generation, probes: probes(session), observed: true, debugToLog: true }),
  ];
  await observed(session.url, true).catch(() => undefined);
  await session.deploy(flows, 'full', [TAB], generation);
}

/** Every operation on every drive, then again while the drive fails in each way it can. */
async function driveTraffic(session: NodeRedSession, tally: Tally): Promise<void> {
  const { sim } = session;
  const requests: [string, Record<string, unknown>][] = [];
  for (const probe of ['secret-good', 'secret-canary', 'secret-echo', 'secret-bad-url']) {
    for (const fields of [{}, { operation: 'get', versionId: 'missing' }, { operation: 'update', versionId: 'missing', label: 'x' }, { operation: 'delete', versionId: 'missing' }, { driveId: '../..' }, { listMode: 'pages', perPage: 5 }]) requests.push([probe, fields]);
  }
  const run = async (): Promise<void> =>
    inPool(requests, 4, async ([probe, fields]) => {
      tally.inputs++;
      const outcome = await sendCommand(session.url, probe, fields as never);
      if (!countOutcome(tally, outcome, probe, () => JSON.stringify(fields))) await session.checkAlive(tally, `after ${probe}`);
      checkOutcome(tally, outcome, [sim.drive.token, CANARY_TOKEN], probe);
    });
  await run();
  for (const fault of [{ action: 'failNext', status: 401, count: 6 }, { action: 'failNext', status: 500, count: 30 }, { action: 'latency', ms: 6000 }]) {
    await simControl(sim.drive.url, fault);
    await run();
    await simControl(sim.drive.url, { action: 'reset' }).catch(() => simControl(sim.drive.url, { action: 'latency', ms: 0 }));
  }
  tally.inputs++;
  tally.expect((await sendCommand(session.url, 'secret-status', {})).kind === 'ack', 'the status node did not answer next to the drive nodes');
}

/** The control: a marker sent into an error goes through the debug nodes to the log, and the scan sees it. */
async function checkLogIsScanned(session: NodeRedSession, tally: Tally): Promise<void> {
  session.log.watchFor(MARKER);
  tally.inputs++;
  await sendCommand(session.url, 'secret-good', { operation: MARKER });
  const seen = await waitUntil(() => session.log.seen(MARKER), 5000);
  tally.expect(seen === true, 'a marker sent through a debug node never reached the scanned log: the log check would be blind');
}

function checkOutcome(tally: Tally, outcome: Outcome, tokens: string[], where: string): void {
  if (outcome.kind !== 'error') return;
  for (const token of tokens) if (outcome.message.includes(token)) tally.finding(`${where}: an error reaching Catch contains a drive token`);
}

async function checkObserved(session: NodeRedSession, tally: Tally, tokens: string[]): Promise<void> {
  const seen = await observed(session.url);
  const text = JSON.stringify(seen);
  tally.inputs++;
  for (const token of tokens) tally.expect(!text.includes(token), `a drive token appeared in a status text or a background error (${seen.statuses.length} statuses, ${seen.errors.length} errors checked)`);
}

/** Every file in the user dir: flows.json, flows_cred.json (encrypted), .config files, backups. */
function checkFiles(session: NodeRedSession, tally: Tally, tokens: string[]): void {
  const files = listFiles(session.red.userDir).filter((file) => !file.includes(`${'node_modules'}`));
  for (const file of files) {
    tally.inputs++;
    const text = readFileSync(file, 'utf8');
    for (const token of tokens) tally.expect(!text.includes(token), `${file.slice(session.red.userDir.length + 1)} contains a drive token in clear`);
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? (name === 'node_modules' ? [] : listFiles(path)) : [path];
  });
}

async function checkExports(session: NodeRedSession, tally: Tally, tokens: string[]): Promise<void> {
  const paths = ['/flows', '/flow/hardening-secrets', '/credentials/stagelink-drive/secret-drive', '/credentials/stagelink-drive/secret-drive-canary', '/nodes', '/settings', '/flows/state'];
  for (const path of paths) {
    tally.inputs++;
    const answer = await session.api.request(path, { headers: path === '/flows' ? { 'node-red-api-version': 'v2' } : {} });
    for (const token of tokens) tally.expect(!answer.text.includes(token), `GET ${path} contains a drive token`);
  }
  const credentials = await session.api.request('/credentials/stagelink-drive/secret-drive');
  tally.expect(/"has_token":\s*true/.test(credentials.text), `the drive's credentials answer does not say it has a token: ${credentials.text.slice(0, 100)}`);
}

/** Who may call what with editor auth on: nobody without a valid login, readers read, admins deploy. */
async function checkAdminAuth(session: NodeRedSession, tally: Tally): Promise<void> {
  const anonymous = AdminApi.anonymous(session.url);
  const forged = anonymous.withToken('not-a-token');
  const viewer = await AdminApi.login(session.red, VIEWER_USER);
  // The dropdowns and the server dialog's director line: every endpoint the editor asks the server through.
  const editorEndpoints = ['transports', 'tracks', 'annotations?track=Intro', 'machines', 'director'].map((path) => `/stagelink/${path}${path.includes('?') ? '&' : '?'}server=secret-server`);
  const expect = async (api: AdminApi, who: string, path: string, init: RequestInit, allowed: readonly number[]): Promise<void> => {
    tally.inputs++;
    const { status } = await api.request(path, init);
    if (tally.expect(allowed.includes(status), `${init.method ?? 'GET'} ${path} as ${who} answered ${status}, expected ${allowed.join(' or ')}`)) tally.ok++;
  };
  for (const path of [...editorEndpoints, '/credentials/stagelink-drive/secret-drive', '/flows']) {
    await expect(anonymous, 'nobody', path, {}, [401]);
    await expect(forged, 'a forged token', path, {}, [401]);
  }
  for (const path of editorEndpoints) await expect(viewer, 'a reader', path, {}, [200]);
  await expect(viewer, 'a reader', '/flows', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }, [401, 403]);
  await expect(anonymous, 'nobody', '/flows', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }, [401]);
  // Editor queries with odd addresses: answered (400/502 with a reason), never a crash. Loopback only.
  for (const host of ['127.0.0.1:1', 'http://', 'ftp://127.0.0.1', '%%%', '']) {
    await expect(session.api, 'an admin', `/stagelink/transports?server=none&host=${encodeURIComponent(host)}`, {}, [400, 502]);
  }
  if (!(await session.checkAlive(tally, 'after the admin API checks'))) tally.finding('Node-RED went down during the admin API checks');
}

interface EchoServer {
  url: string;
  close(): Promise<void>;
}

/** A drive that echoes the request's Authorization header and URL back in an error, as some proxies do. */
async function startEchoServer(): Promise<EchoServer> {
  const server: Server = createServer((request, response) => {
    request.resume();
    response.writeHead(request.method === 'GET' && request.url?.includes('page=2') ? 200 : 500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `Rejected ${request.headers.authorization ?? ''}`, details: `${request.method ?? ''} ${request.url ?? ''} with ${request.headers.authorization ?? ''}` } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
