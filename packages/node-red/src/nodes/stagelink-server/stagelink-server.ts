import { closeWithNode, nodeLogger, ServerConnection, tlsOptions, type ServerConfigNode } from '../../shared/connections.js';
import { sayError } from '../../shared/error-words.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { registerAdminEndpoints } from './admin-endpoints.js';
import { say, useRuntime } from '../../shared/words.js';

/**
 * `stagelink-server`: the address of a media server (the session's director). Owns the one client and the one
 * live-update socket every stagelink node using this server shares.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType(
    'stagelink-server',
    function StagelinkServer(this: Node<never>, def: NodeDef): void {
      RED.nodes.createNode(this, def);
      startServer(RED, this as ServerConfigNode, def);
    },
    // The SMC account is a credential: Node-RED keeps it out of flows.json and exports; the password never goes back to the editor.
    { credentials: { smcUsername: { type: 'text' }, smcPassword: { type: 'password' }, smcPasswords: { type: 'password' } } },
  );
  registerAdminEndpoints(RED);
}

interface ServerCredentials {
  smcUsername?: string;
  smcPassword?: string;
  /** Each machine's own SMC password: `HOSTNAME=password` entries separated by `;`. */
  smcPasswords?: string;
}

function startServer(RED: NodeAPI, node: ServerConfigNode, def: NodeDef): void {
  const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
  const { smcUsername, smcPassword, smcPasswords } = (node as unknown as Node<ServerCredentials>).credentials ?? {};
  const smcHost = text(def.smcHost);
  node.connection = new ServerConnection({
    host: text(def.host),
    followDirector: def.followDirector !== false,
    hosts: text(def.hosts),
    // Absent from flows saved before these settings existed: no backup hosts, no DNS-SD, every interface.
    backupHosts: text(def.backupHosts),
    dnssd: def.dnssd === true,
    dnssdInterface: text(def.dnssdInterface),
    tls: tlsOptions(RED, def.tls),
    tlsNode: text(def.tls),
    ...(smcHost ? { smc: { host: smcHost, username: smcUsername || undefined, password: smcPassword || undefined } } : {}),
    smcs: text(def.smcs),
    smcAccounts: { username: smcUsername || undefined, password: smcPassword || undefined, passwords: smcPasswords || undefined },
    logger: nodeLogger(node),
    onDirector: ({ hostname, url }) => node.log(say('log.director', { hostname, url })),
  });
  closeWithNode(node, node.connection, () => node.connection.label);
  // Said once here: every node using this server shows it in red under itself.
  const problem = node.connection.problem;
  if (problem) node.error(say('error.settingBroken', { reason: sayError(problem) }));
}
