import { UnexpectedAnswerError } from '@stagelink/core';
import { sayingError } from './error-words.js';

/**
 * Reads what a node shows (a summary, a severity) out of a server's answer. Fields of the wrong type (a
 * list that is not a list, a missing version) would otherwise surface as a bare TypeError from deep inside
 * the node; they are reported as what they are: an answer not in the API's shape, as core reports the
 * answers whose shape it checks itself.
 */
export function fromAnswer<T>(what: string, origin: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw sayingError(UnexpectedAnswerError, 'error.notApiShape', { origin, what, detail: error.message });
  }
}
