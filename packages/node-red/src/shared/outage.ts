import { inRuntimeLanguage } from './error-words.js';
import type { Node, NodeMessage } from './node-red.js';
import { say } from './words.js';

/**
 * The rule for work a node repeats on its own (polls, live updates): a failure is reported to Catch nodes once
 * per outage, not on every attempt (a 5 s poll would otherwise raise some 720 errors an hour), and the log says
 * when it works again. The status line still shows every failure; the node keeps trying quietly in between.
 */
export class OutageReport {
  #since: number | undefined;
  #failures = 0;

  constructor(private readonly node: Node<never>) {}

  get ongoing(): boolean {
    return this.#since !== undefined;
  }

  /** Reports the first failure of an outage with `msg` for Catch nodes; later ones are only counted. */
  failed(error: Error, msg: NodeMessage): void {
    this.#failures++;
    if (this.#since !== undefined) return;
    this.#since = Date.now();
    this.node.error(inRuntimeLanguage(error), msg);
  }

  /** Ends the outage, if there was one, with a line in the log. */
  recovered(): void {
    if (this.#since === undefined) return;
    const seconds = Math.round((Date.now() - this.#since) / 1000);
    this.node.log(say(this.#failures === 1 ? 'log.workingAgainOnce' : 'log.workingAgain', { seconds, failures: this.#failures }));
    this.#since = undefined;
    this.#failures = 0;
  }
}
