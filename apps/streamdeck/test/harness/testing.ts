/**
 * `@stagelink/streamdeck/testing`: the fake Stream Deck app that runs the built plugin, and the names of the
 * plugin's actions, for the browser tests, the hardening suite and the benchmarks.
 */
export * from './fake-stream-deck.js';
export { ACTION_UUIDS } from '../../src/settings.js';
