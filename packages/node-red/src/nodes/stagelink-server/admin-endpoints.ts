import { lookup } from 'node:dns/promises';
import {
  type CallOptions,
  discoverDirector,
  type DiscoveredDirector,
  discoverMachines,
  type DiscoveredMachine,
  endpointList,
  MediaServer,
  NotOfferedError,
  parseHostMap,
  parseInterfaceAddress,
  sessionMachines,
  type TlsOptions,
} from '@stagelink/core';
import { type ServerConnection, serverConnection, tlsOptions } from '../../shared/connections.js';
import { errorWords, sayWords, type ErrorWords } from '../../shared/error-words.js';
import type { Node, NodeAPI, Request, Response } from '../../shared/node-red.js';

/** Dropdowns must not hang the editor: a machine that does not answer in this time is reported as such. */
const EDITOR_TIMEOUT_MS = 3000;

export interface Choice {
  uid: string;
  name: string;
  /** Extra words the dropdown shows after the name. */
  detail?: string;
  hostname?: string;
}

export interface DirectorLine {
  /** Undefined when the machine runs solo. */
  hostname?: string;
  url?: string;
  solo: boolean;
  /** True when this config node's requests follow the director as it moves. */
  followed: boolean;
}

type Lookup<T> = (client: MediaServer, options: CallOptions, req: Request) => Promise<T>;

/**
 * A request the endpoint refuses itself, before asking any machine: its HTTP status and its catalog words.
 */
class Refusal extends Error {
  constructor(
    readonly status: 400 | 403 | 502,
    readonly words: ErrorWords,
  ) {
    super(sayWords(words));
  }
}

/**
 * What a failed request answers: `error`, the text in the runtime's language, and `words`, its catalog key and
 * facts, for the editor to say it in the editor's language (which may not be the runtime's). 502 when the machine
 * could not be asked; a host read from the environment is written back as the user typed it.
 */
function answerFailure(res: Response, error: unknown, host = '', typed = ''): void {
  const status = error instanceof Refusal ? error.status : 502;
  const { key, values } = error instanceof Refusal ? error.words : errorWords(error);
  const shown = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, withTypedHost(value, host, typed)]));
  res.status(status).json({ error: sayWords({ key, values: shown }), words: { key, values: shown } });
}

/**
 * Admin endpoints that fill the editor's dropdowns from the live server, through core. They need the
 * `stagelink-server.read` permission, answer JSON, and answer 502 with `{error, words}` (see answerFailure) when
 * the server cannot be asked, so the editor can say why the list is empty.
 */
export function registerAdminEndpoints(RED: NodeAPI): void {
  const get = <T>(path: string, lookup: Lookup<T>): void => {
    RED.httpAdmin.get(`/stagelink/${path}`, RED.auth.needsPermission('stagelink-server.read'), (req, res) => {
      void answer(RED, req, res, lookup);
    });
  };

  get('transports', async (client, options): Promise<Choice[]> => {
    const { transports, multitransports } = await client.transport.transports(options);
    return [
      ...transports.map((t) => ({ uid: t.uid, name: t.name, detail: t.playmode })),
      ...multitransports.map((m) => ({ uid: m.uid, name: m.name, detail: 'multitransport' })),
    ];
  });

  get('tracks', async (client, options): Promise<Choice[]> => {
    const tracks = await client.transport.tracks(options);
    return tracks.map((t) => ({ uid: t.uid, name: t.name }));
  });

  get('annotations', async (client, options, req) => {
    const track = typeof req.query.track === 'string' ? req.query.track : '';
    if (track === '') return { sections: [], notes: [], tags: [] };
    const ref = req.query.trackBy === 'uid' ? { uid: track } : { name: track };
    const { annotations } = await client.transport.annotations(ref, options);
    return {
      sections: annotations.sections.map(({ index, time }) => ({ index, time })),
      notes: annotations.notes.map((n) => n.text),
      tags: annotations.tags.map((t) => ({ type: t.type, value: t.value })),
    };
  });

  // Which machine directs the session, for the config node's dialog. A deployed node that follows the director
  // answers the one it follows now (found on first use if no request has gone out yet).
  get('director', async (client, options): Promise<DirectorLine> => {
    const session = await client.status.session(options);
    const followed = client.director;
    if (followed) return { hostname: followed.hostname, url: followed.url, solo: followed.solo, followed: true };
    return { hostname: session.director?.hostname, solo: !session.director, followed: false };
  });

  get('machines', async (client, options): Promise<Choice[]> => {
    const session = await client.status.session(options);
    return sessionMachines(session).map(({ machine, role }) => ({ uid: machine.uid, name: machine.name, hostname: machine.hostname, detail: role }));
  });

  get('layers', async (client, options): Promise<Choice[]> => {
    const layers = await client.renderstream.layers(options);
    return layers.map((layer) => ({ uid: layer.uid, name: layer.name, detail: layer.workload.state }));
  });

  // The request node's pick list, from what this director says it offers (its own description; see DirectorCommands).
  get('commands', (client, options) => directorCommands(client, options));

  // The config dialog's Discover button: the director of the session that the typed host belongs to, or (with no
  // host, or none answering) one that announces itself over DNS-SD on the desk's network.
  RED.httpAdmin.get('/stagelink/discover', RED.auth.needsPermission('stagelink-server.read'), (req, res) => {
    void discover(RED, req, res).catch((error: unknown) => answerFailure(res, error));
  });

  // The same button's list of machines that announce themselves on the desk's network (every shipping machine
  // does), for the user to pick one. Empty when none did; 502 when DNS-SD could not listen at all.
  RED.httpAdmin.get('/stagelink/discover-machines', RED.auth.needsPermission('stagelink-server.read'), (req, res) => {
    void announcedMachines(req)
      .then(
        (machines) => res.json(machines),
        (error: unknown) => answerFailure(res, error),
      )
      // An answer that cannot be written (the editor gone) is nobody's to hear; it must not reach the runtime.
      .catch(() => undefined);
  });
}

/**
 * What the request node's pick list shows of one director. `described: false`: the director does not describe its
 * API (the documents' servers, older builds), so the catalogue's list stands as it is. Otherwise the title and
 * version of its API, the catalogue's endpoints it does not offer (by id: the list greys them out and says why),
 * and the commands only its description offers (sent by path).
 */
export type DirectorCommands =
  | { described: false }
  | { described: true; title?: string; version?: string; notOffered: string[]; describedOnly: { method: string; path: string; summary: string }[] };

async function directorCommands(client: MediaServer, options: CallOptions): Promise<DirectorCommands> {
  let description;
  try {
    description = await client.describe(options);
  } catch (error) {
    if (error instanceof NotOfferedError) return { described: false };
    throw error;
  }
  // Which catalogue endpoints it lacks, by core's reading: only what the description covers can be missing from it
  // (a shipping director describes `/api/session`; the hardware family is each machine's SMC).
  const reading = await client.apiDescription(options);
  const notOffered = endpointList.filter((spec) => !reading.offers(spec)).map((spec) => spec.id);
  return {
    described: true,
    ...(description.title !== undefined ? { title: description.title } : {}),
    ...(description.version !== undefined ? { version: description.version } : {}),
    notOffered,
    describedOnly: description.commands.filter((command) => !command.known).map(({ method, path, summary }) => ({ method, path, summary })),
  };
}

async function announcedMachines(req: Request): Promise<DiscoveredMachine[]> {
  const problems: string[] = [];
  const machines = await discoverMachines({ timeoutMs: EDITOR_TIMEOUT_MS, ...dialogInterface(req), onProblem: (problem) => problems.push(problem) });
  if (machines.length === 0 && problems.length > 0) {
    throw new Refusal(502, { key: 'admin.noneHeard', values: { problems: problems.join('; ') } });
  }
  return machines;
}

export interface Discovered extends DiscoveredDirector {
  /** False when this computer cannot resolve the director's name: shipping machines go by names like DIRECTOR01. */
  resolvable: boolean;
}

async function discover(RED: NodeAPI, req: Request, res: Response): Promise<void> {
  const text = (key: string): string => (typeof req.query[key] === 'string' ? req.query[key].trim() : '');
  const typed = text('host');
  const host = await hostAsDeployed(RED, req, typed, text('server'));
  if (host.refusal) {
    answerFailure(res, host.refusal);
    return;
  }
  try {
    const asked = host.host || 'localhost';
    const tls = dialogTls(RED, requestedTlsNode(req, deployedConnection(RED, text('server'))), asked);
    const found = await discoverDirector({
      host: asked,
      dnssd: true,
      ...dialogInterface(req),
      timeoutMs: EDITOR_TIMEOUT_MS,
      hosts: parseHostMap(text('hosts')),
      ...(tls ? { tls } : {}),
    });
    res.json({ ...found, resolvable: await resolves(new URL(found.url).hostname) } satisfies Discovered);
  } catch (error) {
    answerFailure(res, error, host.host, typed);
  }
}

/**
 * The dialog's DNS-SD interface, where Discover listens (blank: every interface), whether or not the server uses
 * DNS-SD itself: the network the user named is the one the director is on. Refused as a deploy refuses it.
 */
function dialogInterface(req: Request): { dnssdInterface?: string } {
  const typed = typeof req.query.dnssdInterface === 'string' ? req.query.dnssdInterface.trim() : '';
  try {
    const address = parseInterfaceAddress(typed);
    return address === undefined ? {} : { dnssdInterface: address };
  } catch {
    throw new Refusal(400, { key: 'error.dnssdInterface', values: { value: typed } });
  }
}

async function resolves(hostname: string): Promise<boolean> {
  try {
    await lookup(hostname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Asks the deployed config node's client when the editor's host matches it, otherwise a short-lived client for
 * the host typed in the editor (a server not deployed yet, or being edited).
 */
async function answer<T>(RED: NodeAPI, req: Request, res: Response, lookup: Lookup<T>): Promise<void> {
  const serverId = typeof req.query.server === 'string' ? req.query.server : '';
  const typed = typeof req.query.host === 'string' ? req.query.host.trim() : '';
  let temporary: MediaServer | undefined;
  let host = '';
  try {
    let client: MediaServer | undefined;
    const connection = deployedConnection(RED, serverId);
    const tlsNode = requestedTlsNode(req, connection);
    const sameTls = connection !== undefined && tlsNode === connection.tlsNode;
    const resolved = await hostAsDeployed(RED, req, typed, serverId);
    if (resolved.refusal) {
      // A reader may still list what the deployed server (which read its own host at deploy) answers.
      if (resolved.refusal.status === 403 && connection && sameTls) client = connection.client;
      else {
        answerFailure(res, resolved.refusal);
        return;
      }
    } else {
      host = resolved.host;
      if (connection && sameTls && (host === '' || host === connection.host)) client = connection.client;
    }
    if (!client) {
      if (host === '') {
        answerFailure(res, new Refusal(400, { key: 'admin.chooseServer', values: {} }));
        return;
      }
      const tls = dialogTls(RED, tlsNode, host);
      temporary = new MediaServer({ host, retries: 0, timeoutMs: EDITOR_TIMEOUT_MS, ...(tls ? { tls } : {}) });
      client = temporary;
    }
    res.json(await lookup(client, { timeoutMs: EDITOR_TIMEOUT_MS }, req));
  } catch (error) {
    answerFailure(res, error, host, typed);
  } finally {
    await temporary?.close().catch(() => undefined);
  }
}

/** The server node's connection; undefined when it is not deployed yet (the host the editor sent is then asked). */
function deployedConnection(RED: NodeAPI, serverId: string): ServerConnection | undefined {
  try {
    return serverConnection(RED, serverId);
  } catch {
    return undefined;
  }
}

/** The id of the tls-config node the editor's dialog uses (absent from the request: the deployed server's own). */
function requestedTlsNode(req: Request, connection: ServerConnection | undefined): string {
  return typeof req.query.tls === 'string' ? req.query.tls : (connection?.tlsNode ?? '');
}

/**
 * The TLS settings of that tls-config node (undefined for none), so a venue CA is trusted here as the deployed
 * server will trust it. A node the runtime does not have yet (added in the dialog, not deployed) is refused for an
 * `https://` host: tried without its CA, a venue's server would look unreachable or untrusted, which sends the user
 * after the wrong fault. A plain `http://` host needs none and is tried as it is.
 */
function dialogTls(RED: NodeAPI, tlsNode: string, host: string): TlsOptions | undefined {
  if (tlsNode === '') return undefined;
  const tls = tlsOptions(RED, tlsNode);
  if (!tls && /^https:\/\//i.test(host)) throw new Refusal(400, { key: 'admin.deployTls', values: {} });
  return tls;
}

/** The host to ask, or why the caller may not have it read from the environment. */
type HostAsDeployed = { host: string; refusal?: never } | { host?: never; refusal: Refusal };

/**
 * The host the editor sent as the deployed server reads it: `${NAME}` taken from the environment the way Node-RED
 * resolves it in a config node's settings (the deployed server node's flow and global env first, then the
 * process's), so "Test connection" and the pick lists reach the machine the flow will. Only for a caller who may
 * change the server (`stagelink-server.write`): the environment holds secrets a reader must not see.
 */
async function hostAsDeployed(RED: NodeAPI, req: Request, typed: string, serverId: string): Promise<HostAsDeployed> {
  if (!typed.includes('${')) return { host: typed };
  if (!(await mayChangeServers(RED, req))) {
    return { refusal: new Refusal(403, { key: 'admin.envPermission', values: { typed } }) };
  }
  const node = serverId === '' ? undefined : RED.nodes.getNode(serverId);
  const host = await new Promise<string>((resolve) => {
    RED.util.evaluateNodeProperty(typed, 'env', node as Node<never>, {}, (error, value) => {
      resolve(error || (typeof value !== 'string' && typeof value !== 'number') ? '' : String(value).trim());
    });
  });
  if (host === '') return { refusal: new Refusal(400, { key: 'admin.envNotSet', values: { typed } }) };
  return { host };
}

/**
 * Whether the caller holds `stagelink-server.write`, by Node-RED's own check (anyone may, without adminAuth). That
 * check answers a refusal itself; here it is caught instead of sent.
 */
function mayChangeServers(RED: NodeAPI, req: Request): Promise<boolean> {
  return new Promise((resolve) => {
    const refused = (): void => resolve(false);
    // What Node-RED's check and passport call on a response they refuse.
    const probe: Response & Record<string, unknown> = { statusCode: 200, status: () => probe, setHeader: () => probe, json: refused, send: refused, end: refused };
    try {
      RED.auth.needsPermission('stagelink-server.write')(req, probe, () => resolve(true));
    } catch {
      resolve(false);
    }
  });
}

/** An error text with the host read from the environment written back as the user typed it (`${NAME}`). */
function withTypedHost(reason: string, host: string, typed: string): string {
  if (host === '' || host === typed) return reason;
  const spellings = [host];
  try {
    const url = new URL(host.includes('://') ? host : `http://${host}`);
    spellings.push(url.origin, url.host, url.hostname);
  } catch {
    // Not a URL: only the value itself is replaced.
  }
  return spellings
    .filter((spelling) => spelling !== '')
    .sort((a, b) => b.length - a.length)
    .reduce((text, spelling) => text.split(spelling).join(typed), reason);
}
