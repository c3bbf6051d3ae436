import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FakeStreamDeck } from '@stagelink/streamdeck/testing';
import { isAlive } from '../support/process-stats.js';

/**
 * apps/streamdeck's fake Stream Deck app, which the suite drives: it launches the built plugin as the Stream Deck
 * app does and records every command the plugin sends. Loaded at run time, once the plugin is known to be built.
 */
export type { FakeStreamDeck, Json, JsonObject, PluginCommand } from '@stagelink/streamdeck/testing';

interface HarnessModule {
  FakeStreamDeck: { start(): Promise<FakeStreamDeck> };
}

const APP_DIR = dirname(createRequire(import.meta.url).resolve('@stagelink/streamdeck/package.json'));
const PLUGIN_DIR = join(APP_DIR, 'com.stagelink.mediaserver.sdPlugin');
export const PLUGIN_FILE = join(PLUGIN_DIR, 'bin', 'plugin.js');

/** The action UUIDs of the plugin's manifest, as the plugin itself names them. */
export { ACTION_UUIDS as ACTIONS } from '@stagelink/streamdeck/testing';

let harness: Promise<HarnessModule> | undefined;

function loadHarness(): Promise<HarnessModule> {
  if (!existsSync(PLUGIN_FILE)) throw new Error('The Stream Deck plugin is not built: run `pnpm test:hardening` from the repository root (it builds it first).');
  harness ??= import('@stagelink/streamdeck/testing') as Promise<HarnessModule>;
  return harness;
}

/** The built plugin on a fake Stream Deck app, from its own copy of the .sdPlugin folder (so its logs are its own). */
export interface LaunchedDeck {
  deck: FakeStreamDeck;
  /** Everything the plugin wrote to its log files so far. */
  logs(): string;
  /** True while the plugin process runs. */
  alive(): boolean;
  close(): Promise<void>;
}

/** Launches the plugin and waits for it to register; its global host is `host` (undefined: none yet). */
export async function launchDeck(host: string | undefined, backupHosts?: readonly string[]): Promise<LaunchedDeck> {
  const { FakeStreamDeck } = await loadHarness();
  const pluginDir = join(mkdtempSync(join(tmpdir(), 'stagelink-hardening-deck-')), 'com.stagelink.mediaserver.sdPlugin');
  cpSync(PLUGIN_DIR, pluginDir, { recursive: true, filter: (source) => !source.includes(`${join(PLUGIN_DIR, 'logs')}`) });
  const deck = await FakeStreamDeck.start();
  if (host !== undefined) deck.globalSettings.host = host;
  // As the settings page stores them: one address a line.
  if (backupHosts) deck.globalSettings.backupHosts = backupHosts.join('\n');
  await deck.launch({ pluginDir });
  const logDir = join(pluginDir, 'logs');
  return {
    deck,
    logs: () => (existsSync(logDir) ? readdirSync(logDir).sort().map((file) => readFileSync(join(logDir, file), 'utf8')).join('\n') : ''),
    alive: () => deck.exitCode === null && isAlive(deck.pid),
    close: async () => {
      await deck.close();
      rmSync(dirname(pluginDir), { recursive: true, force: true });
    },
  };
}

/** The live FPS face: its state line, a number and the unit (see apps/streamdeck's end-to-end tests). */
export const LIVE_FPS = />\d+(\.\d)? FPS</;
