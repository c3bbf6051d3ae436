/**
 * The Stream Deck SDK never catches what an action handler throws or rejects with, and a second uncaught
 * error ends the plugin. Every handler runs through `guarded`: a failure is logged and
 * the plugin lives on.
 */
import { reasonOf, type Logger } from '@stagelink/core';

export function guarded(logger: Logger, what: string, run: () => unknown): void {
  try {
    const result = run();
    if (result instanceof Promise) result.catch((error: unknown) => logger.warn(`${what} failed: ${reasonOf(error)}`));
  } catch (error) {
    logger.warn(`${what} failed: ${reasonOf(error)}`);
  }
}
