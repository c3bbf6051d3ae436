/**
 * The plugin's log (the SDK writes it to logs/ in the .sdPlugin folder), with a scope per part of the plugin:
 * each action and each media server logs through its own scope, so every line says what it is about
 * (`transport: key press failed: ...`, `server 10.0.0.5: live update ...`).
 */
import type { Logger } from '@stagelink/core';

export interface PluginLogger extends Logger {
  /** Worth knowing without being a problem (written at the SDK's default log level, as warn and error are). */
  info(message: string): void;
  error(message: string): void;
  /** A logger whose lines start with `name` (nested scopes read `outer->inner`). */
  scope(name: string): PluginLogger;
}

/** What the plugin needs of the SDK's logger (`streamDeck.logger`). */
export interface SdkLogger {
  debug(message: string): unknown;
  info(message: string): unknown;
  warn(message: string): unknown;
  error(message: string): unknown;
  createScope(scope: string): SdkLogger;
}

export function pluginLogger(sdk: SdkLogger): PluginLogger {
  return {
    debug: (message) => void sdk.debug(bounded(message)),
    info: (message) => void sdk.info(bounded(message)),
    warn: (message) => void sdk.warn(bounded(message)),
    error: (message) => void sdk.error(bounded(message)),
    scope: (name) => pluginLogger(sdk.createScope(bounded(name))),
  };
}

/** The longest line the log keeps: a settings field can hold a name of a million characters, and a log file lives on. */
export const LOG_LINE_MAX = 2000;

function bounded(text: string): string {
  return text.length <= LOG_LINE_MAX ? text : `${text.slice(0, LOG_LINE_MAX)}… (${text.length - LOG_LINE_MAX} more characters left out)`;
}

/** A logger that may have an INFO level (the plugin's has; core's Logger type does not require it). */
export type MaybeInfoLogger = Logger & { info?(message: string): void };

/**
 * A routine event (a key not set up yet, a tap on a hold-to-fire key, the plugin stopping): logged at INFO where the
 * logger has that level, so WARN stays for what went wrong.
 */
export function logRoutine(logger: MaybeInfoLogger, message: string): void {
  if (logger.info) logger.info(message);
  else logger.warn(message);
}

/**
 * Lets a message that repeats (a value arriving malformed many times a second) into the log once per interval,
 * saying how many were left out meanwhile. Timed on a monotonic clock.
 */
export class RepeatLimiter {
  #lastAt: number | undefined;
  #leftOut = 0;

  constructor(
    private readonly intervalMs = 60_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls `write` with the count of repeats left out since the last one written, or counts this one as left out. */
  offer(write: (leftOut: number) => void): void {
    const now = this.now();
    if (this.#lastAt !== undefined && now - this.#lastAt < this.intervalMs) {
      this.#leftOut += 1;
      return;
    }
    const leftOut = this.#leftOut;
    this.#lastAt = now;
    this.#leftOut = 0;
    write(leftOut);
  }
}
