import { reasonOf, ShowRecorder, type ShowLogEntry } from '@stagelink/core';
import { access, constants, mkdir } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import nodeRedPackage from '../../../package.json';
import { sayError } from '../../shared/error-words.js';
import { serverConnection, type ServerConnection } from '../../shared/connections.js';
import type { Node, NodeAPI, NodeDef, NodeMessage } from '../../shared/node-red.js';
import { OutageReport } from '../../shared/outage.js';
import { StatusLine } from '../../shared/status.js';
import { say, useRuntime } from '../../shared/words.js';
import { ShowLogEntries } from './show-log-entries.js';

/** Who writes, in every file's `log` record. */
const SOURCE = `stagelink-node-red ${nodeRedPackage.version}`;

/** The part of Node-RED's runtime this node reads besides the shared API: the deployed flows' settings. */
interface FlowsAPI {
  nodes: { eachNode?(callback: (def: NodeDef) => void): void };
}

/**
 * `stagelink-record`: writes the show log (`docs/show-log.md`) from the msgs of the stagelink nodes wired into it,
 * the same files the bridge's `--record` writes: FPS, health, the show's events and clock, and every transport or
 * failover command with its result (failures through a Catch node). A msg it cannot read is counted on its
 * status and warned of once per sender; nothing it receives ever throws.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-record', function StagelinkRecord(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startRecord(RED, this, def);
  });
}

function startRecord(RED: NodeAPI & FlowsAPI, node: Node<never>, def: NodeDef): void {
  const status = new StatusLine(node);
  const folder = typeof def.folder === 'string' ? def.folder.trim() : '';
  const server = serverOf(RED, def.server);
  let written = 0;
  let notRecorded = 0;
  const warned = new Set<string>();
  // Once per outage, with a msg so Catch nodes hear of it; the status stays red until entries reach the file again.
  const outage = new OutageReport(node);

  const fail = (error: Error): void => {
    status.show({ fill: 'red', shape: 'dot', text: say(folder === '' ? 'status.noFolder' : 'status.cannotWrite') });
    outage.failed(error, { topic: 'setup', payload: sayError(error) });
  };

  const show = (): void => {
    if (outage.ongoing) return;
    const where = basename(folder) || folder;
    if (notRecorded > 0) status.warning(say('status.notRecorded', { count: written, skipped: notRecorded }));
    else status.ok(written === 0 ? say('status.recordingTo', { folder: where }) : say('status.written', { count: written, folder: where }));
  };

  const recorder =
    folder === ''
      ? undefined
      : new ShowRecorder({
          dir: resolve(folder),
          source: SOURCE,
          ...sessionOf(RED, def),
          onError: (error) => fail(new Error(say('error.recordFolder', { folder, reason: reasonOf(error) }))),
          // The folder is written (again): a failure before, at deploy or since, is over.
          onWriting: () => {
            outage.recovered();
            show();
          },
        });

  const entries = new ShowLogEntries({
    localMachine: () => {
      const client = server?.client;
      if (!client) return undefined;
      return client.director?.hostname ?? hostnameOf(client.origin);
    },
    settingsOf: (id) => {
      let found: NodeDef | undefined;
      RED.nodes.eachNode?.((candidate) => {
        if (candidate.id === id) found = candidate;
      });
      return found;
    },
  });

  // Said at deploy, not at the first msg (the show must not start on a log that is not being written), once the
  // whole flow has started, so a Catch node later in the flow hears of it.
  const start = setImmediate(() => {
    if (!recorder) return fail(new Error(say('error.noFolder')));
    void checkFolder(folder).then(
      () => show(),
      (error: unknown) => fail(new Error(say('error.recordFolder', { folder, reason: reasonOf(error) }))),
    );
  });

  const notRecordable = (msg: NodeMessage): void => {
    notRecorded++;
    const sender = senderOf(msg);
    if (!warned.has(sender)) {
      warned.add(sender);
      node.warn(say('warning.notRecorded', { sender }));
    }
  };

  node.on('input', (msg, _send, done) => {
    try {
      const found = entries.entriesOf(msg);
      if (found === undefined) notRecordable(msg);
      else if (recorder) for (const entry of found) if (recorder.record(...stamped(entry, msg))) written++;
    } catch {
      // A msg shaped like no sender's (a getter that throws, a cycle): counted, never thrown into the flow.
      notRecordable(msg);
    }
    show();
    done();
  });

  node.on('close', (_removed, done) => {
    clearImmediate(start);
    // Writes what is pending and syncs it before the next deploy opens the file again.
    void (recorder?.close() ?? Promise.resolve())
      .catch((error: unknown) => node.warn(say('error.recordFolder', { folder, reason: reasonOf(error) })))
      .finally(() => {
        status.close();
        done();
      });
  });
}

/** The server chosen (optional): names the session and the machine a local FPS monitor runs on. */
function serverOf(RED: NodeAPI, id: unknown): ServerConnection | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  try {
    return serverConnection(RED, id);
  } catch {
    return undefined;
  }
}

/** The session's name: the node's setting, else the server config node's name, else its host. */
function sessionOf(RED: NodeAPI, def: NodeDef): { session?: string } {
  const own = typeof def.session === 'string' ? def.session.trim() : '';
  if (own !== '') return { session: own };
  if (typeof def.server !== 'string' || def.server === '') return {};
  const config = RED.nodes.getNode(def.server) as { name?: unknown; connection?: { host?: unknown } } | null | undefined;
  const name = typeof config?.name === 'string' && config.name !== '' ? config.name : config?.connection?.host;
  return typeof name === 'string' && name !== '' ? { session: name } : {};
}

/** The folder is made when missing, and must be writable. */
async function checkFolder(folder: string): Promise<void> {
  const dir = resolve(folder);
  await mkdir(dir, { recursive: true });
  await access(dir, constants.W_OK);
}

/**
 * A command with the time its node took it (`msg.takenAt`, also on a Catch node's msg) and how long its answer
 * took: a cue answered late stands in the log where it was given. Anything else is stamped as it arrives.
 */
function stamped(entry: ShowLogEntry, msg: NodeMessage): [ShowLogEntry, Date?] {
  const takenAt = msg.takenAt;
  const now = Date.now();
  if (entry.kind !== 'command' || typeof takenAt !== 'number' || !Number.isFinite(takenAt) || takenAt > now) return [entry];
  return [{ ...entry, ms: now - takenAt }, new Date(takenAt)];
}

/** Who sent a msg, as far as the msg tells: the failed node a Catch node names, else the msg's topic. */
function senderOf(msg: NodeMessage): string {
  const source = (msg.error as { source?: { id?: unknown; type?: unknown } } | undefined)?.source;
  if (typeof source?.id === 'string') return `${String(source.type)} ${source.id}`;
  return typeof msg.topic === 'string' && msg.topic !== '' ? `topic "${msg.topic}"` : say('warning.noTopic');
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
