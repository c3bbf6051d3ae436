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
    debug: (message) => void sdk.debug(message),
    info: (message) => void sdk.info(message),
    warn: (message) => void sdk.warn(message),
    error: (message) => void sdk.error(message),
    scope: (name) => pluginLogger(sdk.createScope(name)),
  };
}
