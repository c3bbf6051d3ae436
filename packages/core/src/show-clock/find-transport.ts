import { StagelinkError } from '../errors.js';
import { shown } from '../media-server/input-checks.js';
import { multitransportMembers } from '../media-server/multitransport.js';
import type { Multitransport, Ref, Transport } from '../media-server/types.js';

/** What a clock was asked to watch, as the server names it, and the transport whose player it reads. */
export interface FoundTransport {
  /** The transport or multitransport asked for: the clock's snapshots name it. */
  target: { uid: string; name: string };
  /** The transport itself, or a multitransport's first member: the player the clock reads. */
  transport: Transport;
}

/**
 * The transport a ref names among the server's. A uid names one transport whatever it is called; a ref that gives
 * both a uid and a name that the server does not give that uid is refused, never taken as another transport.
 */
export function findTransport(ref: Ref, listed: { transports: readonly Transport[]; multitransports: readonly Multitransport[] }): FoundTransport {
  const { transports, multitransports } = listed;
  const named = (candidate: { uid: string; name: string }) => (ref.uid !== undefined ? candidate.uid === ref.uid : candidate.name === ref.name);
  const asked = transports.find(named) ?? multitransports.find(named);
  if (!asked) {
    const by = ref.uid !== undefined ? `with uid ${shown(ref.uid)}` : shown(ref.name);
    throw new StagelinkError(`There is no transport ${by} on the server, so its clock cannot be shown: check the ${ref.uid !== undefined ? 'uid' : 'name'}.`);
  }
  if (ref.name !== undefined && asked.name !== ref.name) {
    throw new StagelinkError(`The transport with uid ${shown(ref.uid)} is named ${shown(asked.name)}, not ${shown(ref.name)}, so its clock is not shown: give its uid or its name alone, or both as the server has them.`);
  }
  const target = { uid: asked.uid, name: asked.name };
  const transport = transports.find((candidate) => candidate.uid === asked.uid) ?? multitransportMembers(transports, asked as Multitransport)[0];
  if (!transport) throw new StagelinkError(`The multitransport ${shown(asked.name)} moves no transport the server lists, so its clock cannot be shown.`);
  return { target, transport };
}
