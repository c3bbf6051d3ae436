import { endpointList, InvalidInputError, NotOfferedError, type CommandName, type EndpointSpec } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';

/** A command named by its whole path, as a director's description lists it, optionally after its method: `POST /api/session/…`. */
const BY_PATH = /^(?:([A-Za-z]+)\s+)?(\/api\/\S+)$/;

/** The command a name gives by its path (`POST /api/session/renderstream/layerhealth`); undefined for any other name. */
export function commandByPath(name: string): CommandName | undefined {
  const match = BY_PATH.exec(name.trim());
  if (!match?.[2]) return undefined;
  return { ...(match[1] ? { method: match[1].toUpperCase() } : {}), path: match[2] };
}

/**
 * The catalogue's endpoint at that path, when core knows it: sent as the catalogue sends it, with its guards and
 * the node's own confirmation for what moves the show, whether or not the director describes its API.
 */
export function catalogueEndpointAt(command: CommandName): EndpointSpec | undefined {
  return endpointList.find((spec) => (command.method === undefined || spec.method === command.method) && spec.path === command.path);
}

/**
 * A director without a description cannot offer a command the catalogue does not know: said in the node's words
 * (pick from the list), rather than core's, which speak to a programmer.
 */
export function notDescribedHere(error: unknown, name: string): unknown {
  return error instanceof NotOfferedError ? sayingError(InvalidInputError, 'error.notDescribedHere', { value: name }) : error;
}

/** A session command answers in the API's envelope: the payload is its `result` where it has one, else the whole answer. */
export function resultOf(answer: unknown): unknown {
  return typeof answer === 'object' && answer !== null && 'result' in answer ? answer.result : answer;
}
