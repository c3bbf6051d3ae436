/**
 * What the property inspectors ask the plugin, and the answers. An inspector is a web page without network
 * rights of its own here (and no CDN at an air-gapped desk), so the connection line and the dropdowns come
 * from the live server through the plugin, which talks to it through core like every key.
 *
 * Request  `{ "request": "connection" | "transports" | "tracks" | "sections" | "notes" | "machines" | "layers" | "unoffered",
 *             "requestId"?: any, "host"?: string, "hosts"?: string, "backupHosts"?: string, "dnssd"?: boolean,
 *             "dnssdInterface"?: string, "smcs"?: string, "hardwareEvery"?: string,
 *             "track"?: string }` (a host that is not text, hosts that are not `NAME=address` lines, backup
 *             addresses that are not addresses, or management controllers and a hardware period the health keys
 *             cannot use, are answered as `invalid`, with the reason)
 * Answer   `{ "response": <request>, "requestId"?, "host": <origin or "">,
 *             "items": [{ "value", "label" }] }`  or  `{ ..., "error": "what went wrong" }`
 * The connection answer carries `"state": "online" | "offline" | "stalled" | "unset" | "invalid" | "refused"` and
 * a `"message"` line instead of items. An error answer carries the same `"state"` (never "online"), so that a page
 * can tell a server it could not reach ("offline": whether a saved value is still on it cannot be told) from
 * one that answered, and one whose large answers stop part way ("stalled": reachable, MTU?) from both.
 * The `unoffered` answer lists the transport commands the director's own description lacks, each labelled with why;
 * none for a director without a description (its commands are the API documents').
 */
import { endpointList, type MediaServer, originOf, reasonOf, sessionMachines, StagelinkError, TRANSPORT_COMMAND_NAMES } from '@stagelink/core';
import type { Translate } from '../i18n.js';
import {
  asSettings,
  type DirectorSearch,
  directorSearchSetting,
  DirectorSearchError,
  hardwareSetting,
  hostSetting,
  type StoredSearch,
  textSetting,
  type JsonObject,
  type JsonValue,
} from '../settings.js';
import { isLinkDown, largeAnswersFail } from '../state/connection/link.js';
import type { DirectorMove, ServerLease, ServerPool } from '../state/connection/server-pool.js';
import { sectionLabel } from './section-label.js';

export const INSPECTOR_REQUESTS = ['connection', 'transports', 'tracks', 'sections', 'notes', 'machines', 'layers', 'unoffered'] as const;
export type InspectorRequest = (typeof INSPECTOR_REQUESTS)[number];

export interface DropdownItem extends JsonObject {
  value: string;
  label: string;
}

const REQUEST_TIMEOUT_MS = 3000;

function isInspectorRequest(value: string | undefined): value is InspectorRequest {
  return (INSPECTOR_REQUESTS as readonly (string | undefined)[]).includes(value);
}

/** What names each director-search field in front of core's reason, in the app's language. */
const BAD_SETTING: Record<DirectorSearchError['setting'], string> = {
  hosts: 'inspector.badHosts',
  backupHosts: 'inspector.badBackupHosts',
  dnssdInterface: 'inspector.badDnssdInterface',
};

/**
 * Answers one inspector message. `host` is the server the key uses (its own setting or the global one), and
 * `stored` how the key finds the director (the global hosts map; for a key on the global host, the backup addresses
 * and DNS-SD), unless the message names others (the inspector asks about what is being typed; a message with
 * `hosts`, `backupHosts` or `dnssd`, even empty, uses its own). The plugin's own sentences are in the app's language
 * (`t`); reasons from core and the server stay as they are. Never rejects.
 */
export async function answerInspector(
  pool: ServerPool,
  message: JsonValue,
  host: JsonValue | undefined,
  t: Translate,
  stored: StoredSearch = {},
): Promise<JsonObject> {
  const payload = asSettings<JsonObject>(message);
  const asked = textSetting(payload.request);
  const base: JsonObject = { response: asked ?? 'unknown', ...(payload.requestId === undefined ? {} : { requestId: payload.requestId }) };
  if (!isInspectorRequest(asked)) return { ...base, error: t('inspector.unknownRequest', { request: String(asked) }) };
  const request = asked;
  const address = hostSetting(payload.host) ?? host;
  if (address === undefined) {
    return request === 'connection'
      ? { ...base, host: '', state: 'unset', message: t('inspector.noServer') }
      : { ...base, host: '', state: 'unset', error: t('inspector.noServer') };
  }
  let origin: string;
  try {
    origin = originOf(address);
  } catch (error) {
    return request === 'connection' ? { ...base, host: '', state: 'invalid', message: reasonOf(error) } : { ...base, host: '', state: 'invalid', error: reasonOf(error) };
  }
  let search: DirectorSearch;
  try {
    const asked = (name: keyof StoredSearch) => (name in payload ? payload[name] : stored[name]);
    search = directorSearchSetting({ hosts: asked('hosts'), backupHosts: asked('backupHosts'), dnssd: asked('dnssd'), dnssdInterface: asked('dnssdInterface') });
  } catch (error) {
    const setting = error instanceof DirectorSearchError ? BAD_SETTING[error.setting] : BAD_SETTING.hosts;
    return invalid(base, origin, request, `${t(setting)} ${reasonOf(error)}`);
  }
  // The health page's hardware settings: the health keys' watches cannot start on them, so the page says why.
  if ('smcs' in payload || 'hardwareEvery' in payload) {
    try {
      hardwareSetting({ smcs: payload.smcs, hardwareEvery: payload.hardwareEvery });
    } catch (error) {
      return invalid(base, origin, request, `${t('inspector.badHardware')} ${reasonOf(error)}`);
    }
  }
  let lease: ServerLease;
  try {
    lease = pool.acquire(origin, search);
  } catch (error) {
    return { ...base, host: origin, state: 'invalid', error: reasonOf(error) };
  }
  try {
    const server = lease.server;
    if (request === 'connection') return { ...base, host: origin, ...(await connection(server, lease.directorMove(), t)) };
    try {
      return { ...base, host: origin, items: await items(server, request, textSetting(payload.track), t) };
    } catch (error) {
      const { state, message } = failure(error, t);
      return { ...base, host: origin, state, error: message };
    }
  } finally {
    lease.release();
  }
}

/** A setting the page shows cannot be used: the connection line's sentence, or a list's error. */
function invalid(base: JsonObject, origin: string, request: InspectorRequest, problem: string): JsonObject {
  return request === 'connection' ? { ...base, host: origin, state: 'invalid', message: problem } : { ...base, host: origin, state: 'invalid', error: problem };
}

/** How long the connection line says the director moved. */
const DIRECTOR_MOVE_NOTICE_MS = 60_000;

async function connection(server: MediaServer, move: DirectorMove | undefined, t: Translate): Promise<JsonObject> {
  try {
    const session = await server.status.session({ timeoutMs: REQUEST_TIMEOUT_MS });
    if (session.isRunningSolo) return { state: 'online', message: t('inspector.solo') };
    const count = (session.director ? 1 : 0) + session.actors.length + session.understudies.length;
    const director = server.director?.hostname ?? session.director?.hostname ?? t('inspector.unknownDirector');
    const followed = new URL(server.origin).hostname === new URL(server.host).hostname ? '' : t('inspector.followedFrom', { host: new URL(server.host).hostname });
    const machines = t(count === 1 ? 'inspector.machines.one' : 'inspector.machines.other', { count });
    const connected = t('inspector.connected', { director, followed, machines });
    const moved = move && performance.now() - move.at < DIRECTOR_MOVE_NOTICE_MS ? ` ${t('inspector.directorMoved', { to: move.to, from: move.from })}` : '';
    return { state: 'online', message: `${connected}${moved}` };
  } catch (error) {
    return failure(error, t);
  }
}

/** A request that failed, as the page shows it: which state, and the sentence (core's, led by ours for MTU?). */
function failure(error: unknown, t: Translate): { state: string; message: string } {
  if (isLinkDown(error)) return { state: 'offline', message: reasonOf(error) };
  if (largeAnswersFail(error)) return { state: 'stalled', message: `${t('inspector.largeAnswersFail')} ${reasonOf(error)}` };
  return { state: 'refused', message: reasonOf(error) };
}

async function items(server: MediaServer, request: Exclude<InspectorRequest, 'connection'>, track: string | undefined, t: Translate): Promise<DropdownItem[]> {
  const options = { timeoutMs: REQUEST_TIMEOUT_MS };
  switch (request) {
    case 'transports': {
      const { transports, multitransports } = await server.transport.transports(options);
      return [
        ...transports.map((transport) => ({ value: transport.name, label: transport.name })),
        ...multitransports.map((multi) => ({ value: multi.name, label: t('inspector.multitransport', { name: multi.name }) })),
      ];
    }
    case 'tracks':
      return (await server.transport.tracks(options)).map((entry) => ({ value: entry.name, label: entry.name }));
    case 'sections':
    case 'notes': {
      if (!track) throw new Error(t(request === 'sections' ? 'inspector.sectionsNeedTrack' : 'inspector.notesNeedTrack'));
      const { annotations } = await server.transport.annotations({ name: track }, options);
      return request === 'sections'
        ? // Sections go by their 0-based index; the time tells the operator which one it is.
          annotations.sections.map((section) => ({ value: String(section.index), label: sectionLabel(section) }))
        : annotations.notes.map((note) => ({ value: note.text, label: t('inspector.noteAt', { text: note.text, time: note.time }) }));
    }
    case 'machines': {
      const session = await server.status.session(options);
      return sessionMachines(session).map(({ machine, role }) => ({ value: machine.hostname, label: t(`inspector.role.${role}`, { hostname: machine.hostname }) }));
    }
    case 'layers':
      try {
        return (await server.renderstream.layers(options)).map((layer) => ({ value: layer.name, label: layer.name }));
      } catch (error) {
        // A director without RenderStream (the API documents' servers, builds without it): the page says so, in words.
        if (error instanceof StagelinkError && error.code === 'STAGELINK_ERR_NOT_OFFERED') throw new Error(t('inspector.renderStreamNotOffered'), { cause: error });
        throw error;
      }
    case 'unoffered':
      return unofferedCommands(server, t);
  }
}

/**
 * The transport commands this director's own description lacks, labelled with why: core's rule of what a
 * description offers decides, and core refuses those commands unsent once it has read it. A build without a
 * description offers the documents' commands: none is listed.
 */
async function unofferedCommands(server: MediaServer, t: Translate): Promise<DropdownItem[]> {
  const options = { timeoutMs: REQUEST_TIMEOUT_MS };
  let version: string | undefined;
  try {
    // Read through the client's kept description, so that a key of this director refuses those commands unsent.
    version = (await server.describe(options)).version;
  } catch (error) {
    if (error instanceof StagelinkError && error.code === 'STAGELINK_ERR_NOT_OFFERED') return [];
    throw error;
  }
  const description = await server.apiDescription(options);
  const api = version ? `API ${version}` : 'API';
  return TRANSPORT_COMMAND_NAMES.flatMap((command) => {
    const endpoint = endpointList.find((candidate) => candidate.method === 'POST' && candidate.path === `/api/session/transport/${command}`);
    if (!endpoint || description.offers(endpoint)) return [];
    return [{ value: command, label: t('inspector.commandNotOffered', { command, api }) }];
  });
}
