import { driveConnection, serverConnection } from './connections.js';
import type { Node, NodeAPI, NodeDef, NodeStatus } from './node-red.js';
import { sayError } from './error-words.js';
import type { ServerState } from './server-state.js';
import type { StatusLine } from './status.js';
import { say } from './words.js';

export interface ServerStatusOptions {
  /** The colour of "connected": yellow for a node whose standing word is a warning (an armed failover node). */
  connectedFill?: 'green' | 'yellow';
  /**
   * The node reports a server it cannot use itself, at its start and with a msg for Catch nodes (the live nodes):
   * shown here, not logged a second time.
   */
  reportsSetup?: boolean;
}

/**
 * Shows under `node` where its `stagelink-server` stands from the moment the flow is deployed, as Node-RED's MQTT
 * nodes show their broker: no server chosen (red, and said in the log) or a setting that cannot work (red; the
 * server node says what is wrong in the log), then
 * connecting, connected (with the director followed) or unreachable, each time that changes. Stops watching when
 * the node closes.
 */
export function showServerState(RED: NodeAPI, node: Node<never>, def: NodeDef, status: StatusLine, options: ServerStatusOptions = {}): void {
  let connection;
  try {
    connection = serverConnection(RED, def.server);
  } catch (error) {
    status.serverState({ fill: 'red', shape: 'dot', text: say('state.noServer') }, 'broken');
    if (!options.reportsSetup) node.error(sayError(error));
    return;
  }
  const unwatch = connection.watch((state: ServerState) => {
    status.serverState(shownState(state, options.connectedFill ?? 'green'), newsOf(state));
  });
  node.on('close', (_removed, done) => {
    unwatch();
    done();
  });
}

function newsOf(state: ServerState): 'good' | 'bad' | 'broken' {
  if (state.kind === 'broken') return 'broken';
  return state.kind === 'unreachable' ? 'bad' : 'good';
}

function shownState(state: ServerState, connectedFill: 'green' | 'yellow'): NodeStatus {
  switch (state.kind) {
    case 'broken':
      return { fill: 'red', shape: 'dot', text: say('state.broken') };
    case 'connecting':
      return { fill: 'yellow', shape: 'ring', text: say('state.connecting') };
    case 'connected':
      return { fill: connectedFill, shape: 'dot', text: state.director ? say('state.director', { hostname: state.director }) : say('state.connected') };
    case 'unreachable':
      return { fill: 'red', shape: 'ring', text: say('state.unreachable') };
  }
}

/**
 * Shows under `node` at deploy what stops its `stagelink-drive` from working (none chosen, no token), in red, and
 * says it once in the log, rather than at the first msg. A drive is asked only when a msg asks it: there is no
 * connection state to show beyond that.
 */
export function showDriveProblem(RED: NodeAPI, node: Node<never>, def: NodeDef, status: StatusLine): void {
  let connection;
  try {
    connection = driveConnection(RED, def.drive);
  } catch (error) {
    status.serverState({ fill: 'red', shape: 'dot', text: say('state.noDrive') }, 'bad');
    node.error(sayError(error));
    return;
  }
  const problem = connection.problem;
  if (!problem) return;
  status.serverState({ fill: 'red', shape: 'dot', text: say('state.brokenDrive') }, 'bad');
  node.error(say('error.driveBroken', { reason: sayError(problem) }));
}
