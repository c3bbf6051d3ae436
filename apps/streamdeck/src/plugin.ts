/**
 * The plugin's entry point, started by the Stream Deck app with `-port -pluginUUID -registerEvent -info` in
 * the .sdPlugin folder. It registers the actions, keeps the plugin alive through any handler failure,
 * and exits when the app's socket closes: the SDK has no reconnect, and open sockets and timers would
 * otherwise keep an orphaned process running.
 */
import streamDeck from '@elgato/streamdeck';
import { reasonOf } from '@stagelink/core';
import { onAppSocketClosed } from './app-socket.js';
import { guarded } from './actions/guard.js';
import { translator } from './i18n.js';
import { pluginLogger } from './logging.js';
import { ClockAction } from './actions/clock-action.js';
import { FpsAction } from './actions/fps-action.js';
import { HealthAction } from './actions/health-action.js';
import { LevelAction } from './actions/level-action.js';
import { RenderStreamAction } from './actions/renderstream-action.js';
import type { PluginServices } from './actions/stagelink-action.js';
import { TransportAction } from './actions/transport-action.js';
import { ServerPool } from './state/connection/server-pool.js';
import { TileRegistry } from './tiles/tile-registry.js';

/** How long shutting down may take before the process leaves anyway. */
const SHUTDOWN_GRACE_MS = 2000;

const logger = pluginLogger(streamDeck.logger);

// Last line of defence: the SDK logs the first uncaught exception and lets the second one kill the process.
process.on('uncaughtException', (error) => logger.error(`Uncaught exception (the plugin carries on): ${reasonOf(error)}`));
process.on('unhandledRejection', (reason) => logger.error(`Unhandled rejection (the plugin carries on): ${reasonOf(reason)}`));

const pool = new ServerPool({ logger, serverLogger: (host) => logger.scope(`server ${host}`) });
const tiles = new TileRegistry(logger);
const translate = translator((key) => streamDeck.i18n.translate(key));
const services: PluginServices = { pool, tiles, logger, translate };

let shuttingDown = false;
function shutDown(reason: string): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info(`Stopping: ${reason}`);
  // Exit even if closing hangs; the app is gone and nothing here may outlive it.
  setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
  guarded(logger, 'shutting down', async () => {
    tiles.disposeAll();
    await pool.close();
    process.exit(0);
  });
}

onAppSocketClosed((reason) => shutDown(`the Stream Deck app's socket closed (${reason})`));
process.once('SIGTERM', () => shutDown('SIGTERM'));
process.once('SIGINT', () => shutDown('SIGINT'));

// Each action logs in its own scope: its lines start with the action's name.
const scoped = (name: string): PluginServices => ({ ...services, logger: logger.scope(name) });
streamDeck.actions.registerAction(new TransportAction(scoped('transport')));
streamDeck.actions.registerAction(new FpsAction(scoped('fps')));
streamDeck.actions.registerAction(new HealthAction(scoped('health')));
streamDeck.actions.registerAction(new LevelAction(scoped('level')));
streamDeck.actions.registerAction(new ClockAction(scoped('clock')));
streamDeck.actions.registerAction(new RenderStreamAction(scoped('renderstream')));

// After a sleep the plugin's sockets and requests may be dead without knowing it yet: start over at once.
streamDeck.system.onSystemDidWakeUp(() => {
  guarded(logger, 'waking up', () => {
    logger.info('The computer woke up: reading every server again and reconnecting live updates.');
    pool.wake();
  });
});

streamDeck.settings.onDidReceiveGlobalSettings((ev) => {
  guarded(logger, 'global settings', () => tiles.globalSettingsChanged(ev.settings));
});

// With message identifiers (Stream Deck 7.1, which the manifest requires), settings events come only when the
// operator changes settings; the answer to the plugin's own request is its return value, used below.
guarded(logger, 'asking for message identifiers', () => {
  streamDeck.settings.useExperimentalMessageIdentifiers = true;
});

guarded(logger, 'connecting to the Stream Deck app', async () => {
  await streamDeck.connect();
  // Until the answer is in, keys wait for the host (they show that they are loading, not SET UP).
  const settings = await streamDeck.settings.getGlobalSettings();
  tiles.globalSettingsChanged(settings);
});
