/**
 * One name per operation. Front ends save a transport command or a failover operation by the last segment of
 * its path (`gototrack`, `volume`, `failovermachine`), as the API documents name it and as saved flows,
 * profiles and cue topics already hold it. A msg, a key's settings or a script may as well use the client's
 * method name (`gotoTrack`, `setVolume`, `failoverMachine`), in any case: each is an alias of the saved name,
 * read here once.
 * Any endpoint goes by its catalogue id (what the request node saves) or by its method, `transport.setBrightness`.
 */
import { endpointList, FAILOVER_OPERATIONS, type EndpointName, type EndpointSpec, type FailoverOperation } from './catalogue.js';
import { TRANSPORT_COMMAND_NAMES, type TransportCommand } from './transport-commands.js';

/** A saved name, or any other word a front end was given for it: checked at run time by the namers below. */
export type OperationWord<Name extends string> = Name | (string & Record<never, never>);

function namer<Name extends string>(group: string, names: readonly Name[]): (word: unknown) => Name | undefined {
  const byWord = new Map<string, Name>(names.map((name) => [name.toLowerCase(), name]));
  for (const { group: owner, operation, path } of endpointList) {
    const name = names.find((candidate) => candidate === path.split('/').at(-1));
    if (owner === group && name) byWord.set(operation.toLowerCase(), name);
  }
  return (word) => (typeof word === 'string' ? byWord.get(word.trim().toLowerCase()) : undefined);
}

/** The transport command a word names (`gototrack`, `gotoTrack`, `SetVolume`, ...), or undefined. */
export const transportCommandNamed: (word: unknown) => TransportCommand | undefined = namer('transport', TRANSPORT_COMMAND_NAMES);

/** The failover operation a word names (`failovermachine`, `failoverMachine`, ...), or undefined. */
export const failoverOperationNamed: (word: unknown) => FailoverOperation | undefined = namer(
  'failover',
  Object.keys(FAILOVER_OPERATIONS) as FailoverOperation[],
);

const endpointsByName = new Map<string, EndpointSpec & { id: EndpointName }>(
  endpointList.flatMap((spec) => [
    [spec.id, spec],
    [`${spec.group}.${spec.operation}`, spec],
  ]),
);

/** The endpoint a name stands for: its catalogue id (`brightness`) or its method (`transport.setBrightness`). */
export function endpointNamed(name: unknown): (EndpointSpec & { id: EndpointName }) | undefined {
  return typeof name === 'string' ? endpointsByName.get(name.trim()) : undefined;
}
