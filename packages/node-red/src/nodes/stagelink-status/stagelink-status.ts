import {
  AbortedError,
  ClosedError,
  InvalidInputError,
  isUnreachable,
  worstHealth,
  type CallOptions,
  type ClockStatus,
  type MediaServer,
  type Severity,
} from '@stagelink/core';
import { fromAnswer } from '../../shared/answer-shape.js';
import { sayError, sayingError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef, NodeMessage, NodeStatus, SendFunction } from '../../shared/node-red.js';
import { OutageReport } from '../../shared/outage.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { say, useRuntime } from '../../shared/words.js';

const STATUS_OPERATIONS = ['health', 'notifications', 'project', 'session'] as const;

/** What the second output says of the readings (see `tell`): the words of core's show clock. */
type ReadingState = ClockStatus;
type StatusOperation = (typeof STATUS_OPERATIONS)[number];

/** Health is polled gently, every few seconds, never in a tight loop (docs/api-notes.md, "Health and FPS"). */
const MIN_POLL_SECONDS = 1;

const SEVERITY_FILL: Record<Severity, NodeStatus['fill']> = { ok: 'green', ready: 'green', busy: 'blue', warning: 'yellow', error: 'red', offline: 'grey' };

/** The catalog words of each severity on the status line (`msg.severity` keeps the API's word). */
const SEVERITY_WORDS: Record<Severity, string> = {
  ok: 'status.severityOk',
  ready: 'status.severityReady',
  busy: 'status.severityBusy',
  warning: 'status.severityWarning',
  error: 'status.severityError',
  offline: 'status.severityOffline',
};

/** The status dot of the worst severity; a machine the session reports offline gets a ring, as a lost link does. */
function severityStatus(severity: Severity): NodeStatus {
  return { fill: SEVERITY_FILL[severity], shape: severity === 'offline' ? 'ring' : 'dot' };
}

/**
 * `stagelink-status`: reads health (with the worst severity in `msg.severity`), notifications, project or
 * session, on each input msg and/or on an interval.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-status', function StagelinkStatus(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startStatus(RED, this, def);
  });
}

function startStatus(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const status = new StatusLine(node);
  showServerState(RED, node, def, status);

  /** Reads for `msg`; `reading.operation` says what it reads as soon as that is known, for the second output. */
  const read = async (msg: NodeMessage, call: CallOptions, reading: { operation?: StatusOperation }): Promise<void> => {
    const server = serverConnection(RED, def.server);
    const props = new MessageProperties(RED, node, def, msg);
    const operation = (await props.text('operation')) ?? 'health';
    if (!isStatusOperation(operation)) {
      throw sayingError(InvalidInputError, 'error.notStatusOperation', { value: operation, choices: STATUS_OPERATIONS.join(', ') });
    }
    reading.operation = operation;
    const machine = await props.text('machine', say('error.whatMachine'));
    const { payload, severity, summary } = await readStatus(server.client, operation, machine, call, server.label);
    msg.payload = payload;
    if (severity !== undefined) {
      msg.severity = severity;
      status.show({ ...severityStatus(severity), text: summary });
    } else {
      status.ok(summary);
    }
    if (msg.topic === undefined) msg.topic = operation;
  };

  /**
   * Whether the last reading is current, on the second output when that changes: `online` once a read answers,
   * `stale` when a read failed although the server answered (the last reading is old), `offline` when the server
   * could not be reached. A dashboard tile must not keep showing a green "ok" from before an outage. Told per
   * topic (the msg's, else the operation read): a tile of project readings that went stale must not hide that
   * health readings are still current, nor the other way round.
   */
  const lastStates = new Map<string, ReadingState>();
  const tell = (state: ReadingState | undefined, msg: NodeMessage, operation: StatusOperation | undefined, send: SendFunction, reason?: string): void => {
    if (state === undefined || work.closing) return;
    const topic = typeof msg.topic === 'string' ? msg.topic : (operation ?? 'health');
    if (lastStates.get(topic) === state) return;
    lastStates.set(topic, state);
    send([null, { topic, payload: state, ...(reason === undefined ? {} : { reason }) }]);
  };

  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Immediate | undefined;
  let polling = false;
  const outage = new OutageReport(node);
  const work = handleInput(node, status, async (msg, { send, call }) => {
    const reading: { operation?: StatusOperation } = {};
    try {
      await read(msg, call, reading);
    } catch (error) {
      tell(failedState(error), msg, reading.operation, send, sayError(error));
      throw error;
    }
    // The state first: a tile that showed OFFLINE gets the reading right after it.
    tell('online', msg, reading.operation, send);
    send([msg, null]);
  }, () => {
    clearImmediate(first);
    clearInterval(timer);
  });

  const poll = (): void => {
    // A slow server must not pile up requests: skip a tick while the last poll is still out.
    if (polling || work.closing) return;
    polling = true;
    const msg: NodeMessage = {};
    const reading: { operation?: StatusOperation } = {};
    void work.track(
      async () => {
        await read(msg, { signal: work.signal }, reading);
        outage.recovered();
        tell('online', msg, reading.operation, node.send.bind(node));
        node.send([msg, null]);
      },
      (error) => {
        status.failed(error);
        tell(failedState(error), msg, reading.operation, node.send.bind(node), sayError(error));
        outage.failed(error, msg);
      },
    ).finally(() => (polling = false));
  };

  const seconds = Number(def.interval);
  if (Number.isFinite(seconds) && seconds > 0) {
    // Read once as soon as the whole flow has started (so a Catch node sees a failure), not only after a period.
    first = setImmediate(poll);
    timer = setInterval(poll, Math.max(MIN_POLL_SECONDS, seconds) * 1000);
  }
}

/**
 * What a failed read says of the readings: `offline` when the server could not be reached, nothing for a failure
 * of the msg or of the flow (an operation or machine the msg gave wrong, a deploy stopping the read: the server
 * may be fine and the last reading current), else `stale` (an HTTP or status error, an answer out of shape, one
 * that stalled: the reading was not renewed).
 */
function failedState(error: unknown): ReadingState | undefined {
  if (isUnreachable(error)) return 'offline';
  if (error instanceof InvalidInputError || error instanceof AbortedError || error instanceof ClosedError) return undefined;
  return 'stale';
}

function isStatusOperation(operation: string): operation is StatusOperation {
  return (STATUS_OPERATIONS as readonly string[]).includes(operation);
}

async function readStatus(
  client: MediaServer,
  operation: StatusOperation,
  machine: string | undefined,
  options: CallOptions,
  origin: string,
): Promise<{ payload: unknown; severity?: Severity; summary: string }> {
  const read = <T>(answer: () => T): T => fromAnswer(operation, origin, answer);
  switch (operation) {
    case 'health': {
      const entries = await client.status.health(options);
      const severity = read(() => worstHealth(entries, machine));
      return { payload: entries, severity, summary: machine ? say('status.healthOf', { machine, severity: say(SEVERITY_WORDS[severity]) }) : say(SEVERITY_WORDS[severity]) };
    }
    case 'notifications': {
      const entries = await client.status.notifications(options);
      const count = read(() => entries.reduce((sum, entry) => sum + entry.notifications.length, 0));
      return { payload: entries, summary: say('status.notifications', { count }) };
    }
    case 'project': {
      const project = await client.status.project(options);
      const summary = read(() => {
        const { major, minor, hotfix } = project.version;
        return `v${major}.${minor}.${hotfix}`;
      });
      return { payload: project, summary };
    }
    case 'session': {
      const session = await client.status.session(options);
      const summary = read(() => (session.isRunningSolo ? say('status.solo') : say('state.director', { hostname: session.director?.hostname ?? '?' })));
      return { payload: session, summary };
    }
  }
}
