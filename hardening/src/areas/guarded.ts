import { endpointList, MediaServer } from '@stagelink/core';
import type { RunContext } from '../context.js';
import { special, type Wire } from '../gen/values.js';
import { harnessTab, serverNode, type Probe } from '../node-red/flows.js';
import { countOutcome } from '../node-red/outcomes.js';
import { sendCommand } from '../node-red/probe-client.js';
import type { NodeRedSession } from '../node-red/session.js';
import { isClearError } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';
import { GUARDED_PATHS } from '../support/request-watch.js';
import { waitUntil } from '../support/time.js';

const TAB = 'hardening-guarded';
const SERVER = 'guarded-server';

/** Every value of msg.confirm that is not `true`: none may count as a confirmation. */
const NOT_CONFIRMATIONS: readonly Wire[] = [false, 'true', 'TRUE', 1, 'yes', 'confirm', {}, [], [true], { confirm: true }, null, special('undefined'), special('NaN'), special('function')];

const GUARDED_FAILOVER = ['failovermachine', 'restoremachine'];
/** Catalogue endpoints that move a show or cut power: the request node must guard them as the failover node does. */
const GUARDED_ENDPOINTS = [...endpointList.filter((spec) => spec.guarded).map((spec) => spec.id), 'failoverMachine', 'restoreMachine'];
/** Endpoints that run code on the director: off unless the client enables them, so refused as off before any confirmation. */
const OFF_UNLESS_ENABLED = new Set<string>(endpointList.filter((spec) => spec.runsCode).map((spec) => spec.id));

/** The error that must refuse an unconfirmed attempt at this endpoint. */
const refusalFor = (endpoint: unknown): string => (typeof endpoint === 'string' && OFF_UNLESS_ENABLED.has(endpoint) ? 'NotEnabledError' : 'ConfirmationRequiredError');

/** The operation and endpoint are left blank in the nodes, so each attempt's msg chooses them. */
function probes(): Probe[] {
  const failover = (armed: Wire): Probe['node'] => ({ type: 'stagelink-failover', server: SERVER, operation: '', machine: 'Actor 1', machineType: 'str', armed });
  return [
    { id: 'guard-failover', node: failover(false) },
    { id: 'guard-failover-armed-text', node: failover('true') },
    { id: 'guard-failover-armed-one', node: failover(1) },
    // Hardware endpoints name their machine (the simulator's own address), so what refuses them is the confirmation.
    { id: 'guard-request', node: { type: 'stagelink-request', server: SERVER, endpoint: '', body: '{"machine":{"name":"Actor 1"}}', bodyType: 'json', machine: '127.0.0.1', machineType: 'str' } },
  ];
}

/**
 * Guarded operations (failover, restore, power off and cycle, SMC clear-all and downgrade) with every
 * non-confirmation, through the failover node (unarmed, and "armed" with values that are not `true`), the
 * request node, and core itself. None may reach the simulator; each must be refused with a clear error. A
 * confirmed failover must arrive, which shows the watch on the simulator works.
 */
export async function guardedOperations(context: RunContext, session: NodeRedSession): Promise<Tally> {
  const tally = new Tally('guarded operations');
  const before = session.requests.count;
  const generation = session.nextGeneration();
  await session.deploy([serverNode(SERVER, session.sim.mediaServer.url), ...harnessTab({ tab: TAB, generation, probes: probes() })], 'full', [TAB], generation);
  for (const confirm of NOT_CONFIRMATIONS) {
    for (const operation of GUARDED_FAILOVER) {
      for (const probe of ['guard-failover', 'guard-failover-armed-text', 'guard-failover-armed-one']) await refused(session, tally, probe, { operation, confirm });
    }
    for (const endpoint of GUARDED_ENDPOINTS) await refused(session, tally, 'guard-request', { endpoint, confirm });
  }
  await coreRefuses(session, tally);
  const leaked = session.requests.since(before);
  tally.expect(leaked.length === 0, `${leaked.length} guarded requests reached the simulator without confirmation: ${[...new Set(leaked)].join(', ')}`);
  await confirmedArrives(session, tally);
  context.progress(`guarded: ${tally.inputs} unconfirmed attempts, ${leaked.length} reached the server`);
  return tally.finish();
}

/** One unconfirmed attempt: it must fail with ConfirmationRequiredError (NotEnabledError where the endpoint is off). */
async function refused(session: NodeRedSession, tally: Tally, probe: string, fields: Record<string, Wire>): Promise<void> {
  tally.inputs++;
  const outcome = await sendCommand(session.url, probe, fields);
  const where = `${probe} ${JSON.stringify(fields)}`;
  if (outcome.kind === 'error' && !outcome.message.startsWith(refusalFor(fields.endpoint))) {
    tally.finding(`${where} was not refused for want of confirmation: ${outcome.message.slice(0, 160)}`);
    return;
  }
  if (outcome.kind === 'ack') {
    tally.finding(`${where} was sent without confirmation`);
    return;
  }
  if (!countOutcome(tally, outcome, where, () => '')) await session.checkAlive(tally, `after ${where}`);
}

async function coreRefuses(session: NodeRedSession, tally: Tally): Promise<void> {
  const client = new MediaServer({ host: session.sim.mediaServer.url });
  try {
    for (const spec of endpointList.filter((candidate) => candidate.guarded)) {
      for (const confirm of [undefined, false, 'true', 1] as unknown[]) {
        tally.inputs++;
        const machine = spec.family === 'hardware' ? { machine: { host: session.sim.mediaServer.url } } : {};
        const attempt = client.call(spec, {}, { confirm: confirm as boolean, ...machine });
        const error = await attempt.then(() => undefined, (reason: unknown) => reason);
        if (error === undefined) tally.finding(`core sent ${spec.id} with confirm ${String(confirm)}`);
        else if (isClearError(error) && (error as Error).name === refusalFor(spec.id)) tally.errors++;
        else tally.finding(`core refused ${spec.id} with confirm ${String(confirm)} but not for want of confirmation: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
      }
    }
  } finally {
    await client.close();
  }
}

/** The control: confirmed, a failover reaches the simulator (and is undone). */
async function confirmedArrives(session: NodeRedSession, tally: Tally): Promise<void> {
  const before = session.requests.count;
  tally.inputs++;
  const outcome = await sendCommand(session.url, 'guard-failover', { operation: 'failovermachine', confirm: true });
  const arrived = await waitUntil(() => session.requests.count > before, 5000);
  if (outcome.kind === 'ack' && arrived) tally.ok++;
  else tally.finding(`a confirmed failover did not arrive (outcome ${outcome.kind}, guarded paths watched: ${[...GUARDED_PATHS].join(', ')})`);
  session.sim.reset();
}
