import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isAlive } from '../support/process-stats.js';

/**
 * The parts of apps/streamdeck's fake Stream Deck app (test/harness/fake-stream-deck.ts) the suite drives. It
 * is loaded at run time from the package that owns it rather than copied; it launches the built plugin as
 * the Stream Deck app does and records every command the plugin sends.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface PluginCommand {
  event: string;
  context?: string;
  payload?: Json;
  seq: number;
  at: number;
}

export interface FakeStreamDeck {
  readonly commands: PluginCommand[];
  readonly globalSettings: JsonObject;
  readonly keys: Map<string, unknown>;
  output: string;
  readonly pid: number | undefined;
  readonly exitCode: number | null;
  launch(options?: { node?: string; pluginDir?: string }): Promise<void>;
  appear(options: { action: string; context: string; settings?: JsonObject; controller?: 'Keypad' | 'Encoder'; column?: number; row?: number; isInMultiAction?: boolean }): void;
  disappear(context: string): void;
  keyDown(context: string): void;
  keyUp(context: string): void;
  press(context: string): void;
  dialRotate(context: string, ticks: number, pressed?: boolean): void;
  dialDown(context: string): void;
  changeSettings(context: string, settings: JsonObject): void;
  changeGlobalSettings(settings: JsonObject): void;
  inspectorAppear(context: string): void;
  inspectorDisappear(context: string): void;
  sendToPlugin(context: string, payload: Json): void;
  send(message: JsonObject): void;
  sendRaw(text: string): void;
  sent(event: string, context?: string): PluginCommand[];
  images(context: string): string[];
  close(): Promise<void>;
}

interface HarnessModule {
  FakeStreamDeck: { start(): Promise<FakeStreamDeck> };
}

const APP_DIR = dirname(createRequire(import.meta.url).resolve('@stagelink/streamdeck/package.json'));
const PLUGIN_DIR = join(APP_DIR, 'com.stagelink.mediaserver.sdPlugin');
export const PLUGIN_FILE = join(PLUGIN_DIR, 'bin', 'plugin.js');

/** The action UUIDs of the plugin's manifest, as the plugin itself names them. */
export { ACTION_UUIDS as ACTIONS } from '@stagelink/streamdeck/src/settings.ts';

let harness: Promise<HarnessModule> | undefined;

function loadHarness(): Promise<HarnessModule> {
  const file = join(APP_DIR, 'test', 'harness', 'fake-stream-deck.ts');
  if (!existsSync(PLUGIN_FILE)) throw new Error('The Stream Deck plugin is not built: run `pnpm test:hardening` from the repository root (it builds it first).');
  harness ??= import(pathToFileURL(file).href) as Promise<HarnessModule>;
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
export async function launchDeck(host: string | undefined): Promise<LaunchedDeck> {
  const { FakeStreamDeck } = await loadHarness();
  const pluginDir = join(mkdtempSync(join(tmpdir(), 'stagelink-hardening-deck-')), 'com.stagelink.mediaserver.sdPlugin');
  cpSync(PLUGIN_DIR, pluginDir, { recursive: true, filter: (source) => !source.includes(`${join(PLUGIN_DIR, 'logs')}`) });
  const deck = await FakeStreamDeck.start();
  if (host !== undefined) deck.globalSettings.host = host;
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
