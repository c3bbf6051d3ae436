/**
 * A stand-in for the Stream Deck app, speaking the app's side of the SDK protocol over a real WebSocket. It
 * launches the built plugin the way the app does (`-port -pluginUUID -registerEvent -info`, working
 * directory the .sdPlugin folder), sends it events (appear, press, turn, settings, inspector messages),
 * answers its requests for settings, and records every command it sends (setImage, showOk, setFeedback, ...).
 * Event shapes follow the installed @elgato/streamdeck's types (dist/api/events).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';

export const PLUGIN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'com.stagelink.mediaserver.sdPlugin');
export const PLUGIN_UUID = 'com.stagelink.mediaserver';
export const REGISTER_EVENT = 'registerPlugin';
export const REGISTER_INSPECTOR_EVENT = 'registerPropertyInspector';
/**
 * The plugin folder with a logs/ of its own, its files linked to the built ones. The SDK writes its log to logs/
 * of the working directory and prunes old files there at start: two plugins started at once in one folder (suites
 * run side by side) remove each other's files and one dies. The app never runs a plugin twice.
 */
export function pluginFolderOfItsOwn(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'stagelink-plugin-')), `${PLUGIN_UUID}.sdPlugin`);
  mkdirSync(dir);
  for (const entry of readdirSync(PLUGIN_DIR)) if (entry !== 'logs') symlinkSync(join(PLUGIN_DIR, entry), join(dir, entry));
  return dir;
}

/** A Stream Deck + : keys and dials. */
export const DEVICE_ID = 'DEVICE-PLUS-1';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One message the plugin sent to the app. */
export interface PluginCommand {
  event: string;
  context?: string;
  id?: string;
  uuid?: string;
  payload?: Json;
  /** Order of arrival, from 0. */
  seq: number;
  /** Milliseconds since the harness started. */
  at: number;
}

export interface KeyOptions {
  action: string;
  context: string;
  settings?: JsonObject;
  controller?: 'Keypad' | 'Encoder';
  column?: number;
  row?: number;
  isInMultiAction?: boolean;
  /** The state the operator chose for a multi-action step (the app sends it with the step's key events); default 0. */
  userDesiredState?: number;
}

interface KeyOnDeck {
  action: string;
  controller: 'Keypad' | 'Encoder';
  settings: JsonObject;
  coordinates: { column: number; row: number };
  isInMultiAction: boolean;
  userDesiredState: number;
  state: number;
}

export interface LaunchOptions {
  /** The Node.js binary to run the plugin with (the app ships its own; tests pass Node 20 or 24). */
  node?: string;
  pluginDir?: string;
  /** The Stream Deck app's language, as the plugin is told at launch (default English). */
  language?: string;
}

export class FakeStreamDeck {
  readonly commands: PluginCommand[] = [];
  /** What property inspectors sent the app (settings, requests for the plugin), in order. */
  readonly inspectorCommands: PluginCommand[] = [];
  readonly globalSettings: JsonObject = {};
  readonly keys = new Map<string, KeyOnDeck>();
  /** What the plugin printed, for the failure message of a test. */
  output = '';
  /** How late the plugin's messages reach a settings page, as from a plugin or an app too busy to pass them on. */
  inspectorDelayMs = 0;
  #socket: WebSocket | undefined;
  /** Open property inspectors by the context of their key. */
  readonly #inspectors = new Map<string, WebSocket>();
  #registered: Promise<void>;
  #markRegistered!: () => void;
  #process: ChildProcess | undefined;
  /** The folder this deck made for its plugin, removed on close. */
  #ownFolder: string | undefined;
  #pluginFolder: string | undefined;
  #exit: Promise<number | null> | undefined;
  #waiters = new Set<() => void>();
  readonly #started = Date.now();

  private constructor(
    private readonly server: WebSocketServer,
    readonly port: number,
  ) {
    this.#registered = new Promise((resolve) => (this.#markRegistered = resolve));
    server.on('connection', (socket) => this.#accept(socket));
  }

  static async start(): Promise<FakeStreamDeck> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    return new FakeStreamDeck(server, address.port);
  }

  /** Starts the plugin as the app does and waits for it to register. */
  async launch(options: LaunchOptions = {}): Promise<void> {
    const info = {
      application: { font: 'Arial', language: options.language ?? 'en', platform: 'mac', platformVersion: '14.5.0', version: '7.1.0.21000' },
      colors: {
        buttonMouseOverBackgroundColor: '#464646FF',
        buttonPressedBackgroundColor: '#303030FF',
        buttonPressedBorderColor: '#646464FF',
        buttonPressedTextColor: '#969696FF',
        highlightColor: '#0078FFFF',
      },
      devicePixelRatio: 2,
      devices: [{ id: DEVICE_ID, name: 'Stream Deck +', size: { columns: 4, rows: 2 }, type: 7 }],
      plugin: { uuid: PLUGIN_UUID, version: '0.1.0.0' },
    };
    const args = ['bin/plugin.js', '-port', String(this.port), '-pluginUUID', PLUGIN_UUID, '-registerEvent', REGISTER_EVENT, '-info', JSON.stringify(info)];
    this.#pluginFolder = options.pluginDir ?? (this.#ownFolder ??= pluginFolderOfItsOwn());
    const child = spawn(options.node ?? process.execPath, args, { cwd: this.#pluginFolder, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#process = child;
    child.stdout.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.#exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    const outcome = await Promise.race([
      this.#registered.then(() => 'registered' as const),
      this.#exit.then(() => 'exited' as const),
      delay(15_000).then(() => 'silent' as const),
    ]);
    if (outcome === 'exited') throw new Error(`The plugin exited with code ${String(child.exitCode)} before registering:\n${this.output}`);
    if (outcome === 'silent') throw new Error(`The plugin did not register within 15 s:\n${this.output}`);
  }

  /** The folder the plugin runs in: its logs/ are this launch's alone. */
  get pluginFolder(): string | undefined {
    return this.#pluginFolder;
  }

  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** Null while the plugin runs. */
  get exitCode(): number | null {
    return this.#process?.exitCode ?? null;
  }

  /** Resolves with the exit code when the plugin process has exited. */
  exited(): Promise<number | null> {
    if (!this.#exit) throw new Error('The plugin was not launched.');
    return this.#exit;
  }

  // ---- events to the plugin ----------------------------------------------------------------------------------

  appear(options: KeyOptions): void {
    const key: KeyOnDeck = {
      action: options.action,
      controller: options.controller ?? 'Keypad',
      settings: options.settings ?? {},
      coordinates: { column: options.column ?? 0, row: options.row ?? 0 },
      isInMultiAction: options.isInMultiAction ?? false,
      userDesiredState: options.userDesiredState ?? 0,
      state: 0,
    };
    this.keys.set(options.context, key);
    this.send(this.#actionEvent('willAppear', options.context));
  }

  disappear(context: string): void {
    this.send(this.#actionEvent('willDisappear', context));
    this.keys.delete(context);
  }

  keyDown(context: string): void {
    this.send(this.#keyEvent('keyDown', context));
  }

  keyUp(context: string): void {
    this.send(this.#keyEvent('keyUp', context));
  }

  /** Presses and releases a key, as a tap does. */
  press(context: string): void {
    this.keyDown(context);
    this.keyUp(context);
  }

  dialRotate(context: string, ticks: number, pressed = false): void {
    const key = options(this.keys, context);
    this.send({
      event: 'dialRotate',
      action: key.action,
      context,
      device: DEVICE_ID,
      payload: { controller: 'Encoder', coordinates: key.coordinates, settings: key.settings, resources: {}, ticks, pressed },
    });
  }

  dialDown(context: string): void {
    const key = options(this.keys, context);
    this.send({
      event: 'dialDown',
      action: key.action,
      context,
      device: DEVICE_ID,
      payload: { controller: 'Encoder', coordinates: key.coordinates, settings: key.settings, resources: {} },
    });
  }

  /** The operator typed a title for a key in the app: the app draws it and tells the plugin. */
  setTitle(context: string, title: string, titleAlignment: 'top' | 'middle' | 'bottom' = 'top'): void {
    const key = options(this.keys, context);
    this.send({
      event: 'titleParametersDidChange',
      action: key.action,
      context,
      device: DEVICE_ID,
      payload: {
        controller: 'Keypad',
        coordinates: key.coordinates,
        settings: key.settings,
        state: key.state,
        title,
        titleParameters: { fontFamily: '', fontSize: 12, fontStyle: '', fontUnderline: false, showTitle: true, titleAlignment, titleColor: '#ffffff' },
      },
    });
  }

  /** The computer woke from sleep: the app tells every plugin. */
  systemWake(): void {
    this.send({ event: 'systemDidWakeUp' });
  }

  /** The inspector changed a key's settings: the app stores them and tells the plugin. */
  changeSettings(context: string, settings: JsonObject): void {
    options(this.keys, context).settings = settings;
    this.send(this.#actionEvent('didReceiveSettings', context));
  }

  /** The inspector changed the global settings: the app stores them and tells the plugin. */
  changeGlobalSettings(settings: JsonObject): void {
    for (const key of Object.keys(this.globalSettings)) delete this.globalSettings[key];
    Object.assign(this.globalSettings, settings);
    this.send({ event: 'didReceiveGlobalSettings', payload: { settings: this.globalSettings } });
  }

  inspectorAppear(context: string): void {
    const key = options(this.keys, context);
    this.send({ event: 'propertyInspectorDidAppear', action: key.action, context, device: DEVICE_ID });
  }

  inspectorDisappear(context: string): void {
    const key = options(this.keys, context);
    this.send({ event: 'propertyInspectorDidDisappear', action: key.action, context, device: DEVICE_ID });
  }

  /** A message from the key's property inspector to the plugin. */
  sendToPlugin(context: string, payload: Json): void {
    const key = options(this.keys, context);
    this.send({ event: 'sendToPlugin', action: key.action, context, payload });
  }

  send(message: JsonObject): void {
    this.sendRaw(JSON.stringify(message));
  }

  /** Any text, well-formed or not, as the app's socket would carry it. */
  sendRaw(text: string): void {
    if (!this.#socket) throw new Error('No plugin is connected.');
    this.#socket.send(text);
  }

  // ---- what the plugin sent ----------------------------------------------------------------------------------

  /** Commands of one kind (and one key), in order. */
  sent(event: string, context?: string): PluginCommand[] {
    return this.commands.filter((command) => command.event === event && (context === undefined || command.context === context));
  }

  /** The SVG images the plugin set on a key, decoded, in order. */
  images(context: string): string[] {
    return this.sent('setImage', context).map((command) => decodeImage(command));
  }

  latestImage(context: string): string | undefined {
    return this.images(context).at(-1);
  }

  /** Touch-strip feedback set on a dial, in order. */
  feedback(context: string): JsonObject[] {
    return this.sent('setFeedback', context).map((command) => command.payload as JsonObject);
  }

  /** Waits until `test` finds what it looks for among the commands; returns what it returned. */
  async waitFor<T>(test: (commands: PluginCommand[]) => T | undefined | false, description: string, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = test(this.commands);
      if (found !== undefined && found !== false) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for ${description}. Plugin output:\n${this.output.slice(-4000)}`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 200));
        this.#waiters.add(wake);
      });
    }
  }

  /** Waits for a key image that `test` accepts (checked on the decoded SVG). */
  waitForImage(context: string, test: (svg: string) => boolean, description: string, timeoutMs?: number): Promise<string> {
    return this.waitFor(
      (commands) => commands.filter((c) => c.event === 'setImage' && c.context === context).map(decodeImage).reverse().find(test),
      `${description} on ${context}`,
      timeoutMs,
    );
  }

  /** Waits for the latest image of a key to satisfy `test` (older frames do not count). */
  waitForLatestImage(context: string, test: (svg: string) => boolean, description: string, timeoutMs?: number): Promise<string> {
    return this.waitFor(
      () => {
        const latest = this.latestImage(context);
        return latest !== undefined && test(latest) ? latest : undefined;
      },
      `${description} on ${context}`,
      timeoutMs,
    );
  }

  /** Closes the app's side of the socket, as the app does when it quits. */
  closeSocket(): void {
    this.#socket?.close();
  }

  /** Stops everything: the socket, the server, and the plugin if it still runs. */
  async close(): Promise<void> {
    this.#socket?.terminate();
    const child = this.#process;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await this.#exit;
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.#ownFolder) rmSync(join(this.#ownFolder, '..'), { recursive: true, force: true });
  }

  /**
   * What the app hands a property inspector page: `connectElgatoStreamDeckSocket(port, uuid, registerEvent,
   * info, actionInfo)`. The inspector's uuid is its key's context.
   */
  inspectorArguments(context: string): [number, string, string, string, string] {
    const key = options(this.keys, context);
    const actionInfo = { action: key.action, context, device: DEVICE_ID, payload: { settings: key.settings, coordinates: key.coordinates } };
    return [this.port, context, REGISTER_INSPECTOR_EVENT, JSON.stringify({ application: { language: 'en', platform: 'mac', version: '7.1.0' } }), JSON.stringify(actionInfo)];
  }

  #accept(socket: WebSocket): void {
    socket.on('message', (data: Buffer) => {
      let message: JsonObject;
      try {
        message = JSON.parse(data.toString()) as JsonObject;
      } catch {
        this.output += `\n[harness] unparsable message: ${data.toString()}`;
        return;
      }
      if (message.event === REGISTER_INSPECTOR_EVENT && typeof message.uuid === 'string') {
        this.#inspectors.set(message.uuid, socket);
        return;
      }
      if ([...this.#inspectors.values()].includes(socket)) this.#fromInspector(socket, message);
      else this.#record(socket, message);
    });
  }

  /** The app's part between an inspector and the plugin: it stores settings and passes messages on. */
  #fromInspector(socket: WebSocket, message: JsonObject): void {
    const context = typeof message.context === 'string' ? message.context : '';
    this.inspectorCommands.push({
      event: typeof message.event === 'string' ? message.event : JSON.stringify(message.event),
      context,
      seq: this.inspectorCommands.length,
      at: Date.now() - this.#started,
      ...(message.payload === undefined ? {} : { payload: message.payload }),
    });
    const key = this.keys.get(context);
    switch (message.event) {
      case 'setSettings':
        if (key) {
          key.settings = message.payload as JsonObject;
          this.send(this.#actionEvent('didReceiveSettings', context));
        }
        break;
      case 'getSettings':
        if (key) socket.send(JSON.stringify(this.#actionEvent('didReceiveSettings', context)));
        break;
      case 'setGlobalSettings':
        this.changeGlobalSettings(message.payload as JsonObject);
        break;
      case 'getGlobalSettings':
        socket.send(JSON.stringify({ event: 'didReceiveGlobalSettings', payload: { settings: this.globalSettings } }));
        break;
      case 'sendToPlugin':
        if (key) this.send({ event: 'sendToPlugin', action: key.action, context, payload: message.payload as Json });
        break;
    }
    for (const wake of [...this.#waiters]) wake();
  }

  #record(socket: WebSocket, message: JsonObject): void {
    const event = typeof message.event === 'string' ? message.event : JSON.stringify(message.event);
    if (event === REGISTER_EVENT && message.uuid === PLUGIN_UUID) {
      this.#socket = socket;
      this.#markRegistered();
    }
    const command: PluginCommand = {
      event,
      seq: this.commands.length,
      at: Date.now() - this.#started,
      ...(typeof message.context === 'string' ? { context: message.context } : {}),
      ...(typeof message.id === 'string' ? { id: message.id } : {}),
      ...(typeof message.uuid === 'string' ? { uuid: message.uuid } : {}),
      ...(message.payload === undefined ? {} : { payload: message.payload }),
    };
    this.commands.push(command);
    this.#answer(message);
    for (const wake of [...this.#waiters]) wake();
  }

  /** The app answers requests and stores what the plugin sets. */
  #answer(message: JsonObject): void {
    const context = typeof message.context === 'string' ? message.context : '';
    const id: JsonObject = typeof message.id === 'string' ? { id: message.id } : {};
    switch (message.event) {
      case 'getGlobalSettings':
        this.send({ event: 'didReceiveGlobalSettings', ...id, payload: { settings: this.globalSettings } });
        return;
      case 'setGlobalSettings':
        Object.assign(this.globalSettings, message.payload as JsonObject);
        return;
      case 'getSettings':
        if (this.keys.has(context)) this.send({ ...this.#actionEvent('didReceiveSettings', context), ...id });
        return;
      case 'setSettings':
        if (this.keys.has(context)) options(this.keys, context).settings = message.payload as JsonObject;
        return;
      case 'sendToPropertyInspector': {
        const inspector = this.#inspectors.get(context);
        const key = this.keys.get(context);
        if (!inspector || !key) return;
        const event = JSON.stringify({ event: 'sendToPropertyInspector', action: key.action, context, payload: message.payload });
        if (this.inspectorDelayMs > 0) setTimeout(() => inspector.readyState === WebSocket.OPEN && inspector.send(event), this.inspectorDelayMs);
        else inspector.send(event);
        return;
      }
      case 'setState': {
        const state = (message.payload as { state?: number } | undefined)?.state;
        if (this.keys.has(context) && typeof state === 'number') options(this.keys, context).state = state;
        return;
      }
    }
  }

  /** A key going down or up; a multi-action step's carries the state chosen for the step, as the app's do. */
  #keyEvent(event: 'keyDown' | 'keyUp', context: string): JsonObject {
    const message = this.#actionEvent(event, context);
    const key = options(this.keys, context);
    if (!key.isInMultiAction) return message;
    return { ...message, payload: { ...(message.payload as JsonObject), userDesiredState: key.userDesiredState } };
  }

  #actionEvent(event: string, context: string): JsonObject {
    const key = options(this.keys, context);
    const payload: JsonObject =
      key.controller === 'Encoder'
        ? { controller: 'Encoder', coordinates: key.coordinates, settings: key.settings, resources: {}, isInMultiAction: false }
        : key.isInMultiAction
          ? { controller: 'Keypad', settings: key.settings, resources: {}, isInMultiAction: true, state: key.state }
          : { controller: 'Keypad', coordinates: key.coordinates, settings: key.settings, resources: {}, isInMultiAction: false, state: key.state };
    return { event, action: key.action, context, device: DEVICE_ID, payload };
  }
}

function options(keys: Map<string, KeyOnDeck>, context: string): KeyOnDeck {
  const key = keys.get(context);
  if (!key) throw new Error(`No key ${context} is on the deck.`);
  return key;
}

/** The SVG inside a setImage command (`data:image/svg+xml;base64,...` or `;charset=utf8,...`). */
export function decodeImage(command: PluginCommand): string {
  const image = (command.payload as { image?: string } | undefined)?.image ?? '';
  const base64 = /^data:image\/svg\+xml;base64,(.*)$/s.exec(image);
  if (base64?.[1] !== undefined) return Buffer.from(base64[1], 'base64').toString('utf8');
  const plain = /^data:image\/svg\+xml;charset=utf8,(.*)$/s.exec(image);
  if (plain?.[1] !== undefined) return decodeURIComponent(plain[1]);
  return image;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
