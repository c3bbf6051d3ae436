import { closeWithNode, DriveConnection, tlsOptions, type DriveConfigNode } from '../../shared/connections.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { useRuntime } from '../../shared/words.js';

interface DriveCredentials {
  token: string;
}

/**
 * `stagelink-drive`: the cloud drive's address, with the organisation's API token in the credentials. The token is
 * a `password` credential: Node-RED keeps it out of flows.json and exports and never sends it back to the editor.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType(
    'stagelink-drive',
    function StagelinkDrive(this: Node<never>, def: NodeDef): void {
      RED.nodes.createNode(this, def);
      startDrive(RED, this as DriveConfigNode, def);
    },
    { credentials: { token: { type: 'password' } } },
  );
}

function startDrive(RED: NodeAPI, node: DriveConfigNode, def: NodeDef): void {
  const baseUrl = typeof def.baseUrl === 'string' ? def.baseUrl.trim() : '';
  const { token } = (node as unknown as Node<DriveCredentials>).credentials;
  node.connection = new DriveConnection(baseUrl, token, tlsOptions(RED, def.tls));
  closeWithNode(node, node.connection, () => baseUrl);
}
