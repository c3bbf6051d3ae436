import { TRANSPORT_COMMAND_NAMES } from '@stagelink/core';
import { serverHosts } from './node-settings.js';
import type { Random } from './random.js';
import { hostileSetting, PATH_TRICKS, type Wire } from './values.js';

/**
 * Generated Stream Deck traffic: keys appearing with any settings (right, wrong, huge, nested), settings
 * changes, presses, dial turns with odd tick counts, inspector requests, global host changes and frames the
 * app would never send. Hosts are only ever loopback or malformed.
 */
export type DeckAction = 'transport' | 'fps' | 'health' | 'level' | 'clock';
export type Settings = Record<string, Wire>;

export type DeckEvent =
  | { kind: 'appear'; context: string; action: DeckAction; controller: 'Keypad' | 'Encoder'; settings: Settings; multi: boolean }
  | { kind: 'disappear'; context: string }
  | { kind: 'settings'; context: string; settings: Settings }
  | { kind: 'press'; context: string }
  | { kind: 'keyDown' | 'keyUp' | 'dialDown' | 'touchTap'; context: string }
  | { kind: 'rotate'; context: string; ticks: Wire }
  | { kind: 'global'; settings: Settings }
  | { kind: 'inspector'; context: string; payload: Wire }
  | { kind: 'raw'; text: string };

export interface KeyState {
  action: DeckAction;
  controller: 'Keypad' | 'Encoder';
  multi: boolean;
  settings: Settings;
  /** The settings are right and no raw frame has changed them since. */
  settingsRight: boolean;
}

/** The request id of the one raw inspector message, so its answer is told apart from the inspector requests'. */
export const RAW_REQUEST_ID = 'raw-frame';

const ACTIONS: readonly DeckAction[] = ['transport', 'fps', 'health', 'level', 'clock'];
const MAX_KEYS = 24;

function field(random: Random, valid: readonly Wire[]): Wire {
  return random.chance(0.65) ? random.pick(valid) : hostileSetting(random);
}

export class DeckEventGenerator {
  readonly keys = new Map<string, KeyState>();
  /** The host in the deck's global settings: the phase starts with the server's, events change it. */
  globalHost: Wire | undefined;
  #counter = 0;

  constructor(
    private readonly random: Random,
    private readonly simUrl: string,
    /** Contexts are `<prefix>-key-<n>`, so keys of two runs on one deck never share a context. */
    private readonly prefix: string,
  ) {
    this.globalHost = simUrl;
  }

  /** Settings for a key of `action`, and whether they are right. */
  settingsFor(action: DeckAction): { settings: Settings; right: boolean } {
    const random = this.random;
    // Two in five are set up right, so cues also fire and values also show; the rest are anything.
    if (random.chance(0.4)) return { settings: goodSettings(action, random), right: true };
    const settings: Settings = {};
    const pools: Record<string, readonly Wire[]> = {
      transport: ['main', 'lobby', 'stage', 'nope', ...PATH_TRICKS.slice(0, 3)],
      machine: ['', 'actor-1', 'actor-2', '127.0.0.1', 'nobody', 'a"b'],
      ...(action === 'transport'
        ? {
            command: [...TRANSPORT_COMMAND_NAMES, 'PLAY', 'explode', ''],
            track: ['Intro', 'Act 1', '42'],
            section: ['1', '2', '9'],
            note: ['House open', 'nope'],
            tagType: ['TC', 'CUE'],
            tagValue: ['Q1', '10:05:00:00'],
            time: [0, '10', -5, 'ten'],
            timecode: ['10:05:00:00', 'x'],
            frame: [0, '30', 1e12],
            playmode: ['play', 'stop', 'bogus', ''],
          }
        : {}),
      ...(action === 'fps' ? { target: [60, '59.94', 0, -1, 'x', 1e9] } : {}),
      ...(action === 'level' ? { property: ['volume', 'brightness', 'VOLUME', 'colour', ''], step: [0.01, '0.1', 0, -1, 2, 'x', 1e-9] } : {}),
      ...(action === 'clock'
        ? { show: ['sectionRemaining', 'trackRemaining', 'playhead', 'nextCueIn', 'PLAYHEAD', 'tomorrow', ''], warnAt: [10, '30', 0, -5, 'x', 1e12], flashAt: [5, '2.5', 0, -1, 'x', 1e12] }
        : {}),
    };
    for (const [name, valid] of Object.entries(pools)) if (random.chance(0.75)) settings[name] = field(random, valid);
    if (random.chance(0.1)) settings.host = random.pick(serverHosts(this.simUrl));
    return { settings, right: false };
  }

  next(): DeckEvent {
    const random = this.random;
    const contexts = [...this.keys.keys()];
    const roll = random.next();
    if (contexts.length === 0 || (roll < 0.2 && contexts.length < MAX_KEYS)) return this.#appear();
    const context = random.pick(contexts);
    const key = this.keys.get(context) as KeyState;
    if (roll < 0.3) {
      const { settings, right } = this.settingsFor(key.action);
      Object.assign(key, { settings, settingsRight: right });
      return { kind: 'settings', context, settings };
    }
    if (roll < 0.55) return key.controller === 'Keypad' ? { kind: 'press', context } : { kind: 'rotate', context, ticks: random.pick<Wire>([1, -1, 3, -7, 0, 1000, -1e6, 2.5, 'x', null]) };
    if (roll < 0.62) return { kind: random.pick(['keyDown', 'keyUp', 'dialDown', 'touchTap'] as const), context };
    if (roll < 0.7) {
      this.keys.delete(context);
      return { kind: 'disappear', context };
    }
    if (roll < 0.8) return { kind: 'inspector', context, payload: this.#inspectorPayload() };
    if (roll < 0.85) {
      this.globalHost = random.chance(0.7) ? this.simUrl : random.pick(serverHosts(this.simUrl));
      return { kind: 'global', settings: { host: this.globalHost } };
    }
    if (roll < 0.95) return { kind: 'raw', text: this.#rawFrame(key, context) };
    return this.#appear(context);
  }

  /** A new key, or (with `reuse`) the same key appearing again, as after a page flip. */
  #appear(reuse?: string): DeckEvent {
    const random = this.random;
    const context = reuse ?? `${this.prefix}-key-${this.#counter++}`;
    const known = reuse === undefined ? undefined : this.keys.get(reuse);
    const action = known?.action ?? random.pick(ACTIONS);
    // The app puts the level action on a dial and the others on keys; one in ten is put where it does not belong.
    const natural = action === 'level' ? 'Encoder' : 'Keypad';
    const controller = known?.controller ?? (random.chance(0.9) ? natural : natural === 'Encoder' ? 'Keypad' : 'Encoder');
    const { settings, right } = this.settingsFor(action);
    const multi = random.chance(0.1);
    this.keys.set(context, { action, controller, multi, settings, settingsRight: right });
    return { kind: 'appear', context, action, controller, settings, multi };
  }

  #inspectorPayload(): Wire {
    const random = this.random;
    if (random.chance(0.2)) return hostileSetting(random);
    return {
      request: random.pick<Wire>(['connection', 'transports', 'tracks', 'sections', 'notes', 'machines', 'bogus', 5, null]),
      requestId: random.pick<Wire>([1, 'a', null, { deep: [1] }]),
      ...(random.chance(0.3) ? { host: random.pick(serverHosts(this.simUrl)) } : {}),
      ...(random.chance(0.3) ? { track: random.pick<Wire>(['Intro', '', 5, '../']) } : {}),
    };
  }

  /** A frame the app never sends; some change the key's settings, one drops the global host. */
  #rawFrame(key: KeyState, context: string): string {
    const frame = this.random.pick([
      'not json',
      '',
      '[]',
      'null',
      '{"event":5}',
      '{"event":"keyDown"}',
      `{"event":"keyDown","context":"${context}"}`,
      `{"event":"keyDown","action":"com.stagelink.mediaserver.transport","context":"never-appeared","payload":{}}`,
      `{"event":"willAppear","action":"com.stagelink.mediaserver.fps","context":"${context}","payload":null}`,
      `{"event":"didReceiveSettings","action":"com.stagelink.mediaserver.transport","context":"${context}","payload":{"settings":"x"}}`,
      `{"event":"dialRotate","action":"com.stagelink.mediaserver.level","context":"${context}","payload":{"ticks":"many"}}`,
      '{"event":"didReceiveGlobalSettings","payload":{"settings":[1,2]}}',
      '{"event":"systemDidWakeUp"}',
      '{"event":"deviceDidConnect","device":"x","deviceInfo":null}',
      `{"event":"sendToPlugin","action":"com.stagelink.mediaserver.transport","context":"${context}","payload":{"request":"transports","host":"127.0.0.1:1","requestId":"${RAW_REQUEST_ID}"}}`,
      `{"event":"${'e'.repeat(100_000)}"}`,
    ]);
    if (frame.includes(`"${context}"`) && /willAppear|didReceiveSettings/.test(frame)) key.settingsRight = false;
    if (frame.includes('didReceiveGlobalSettings')) this.globalHost = undefined;
    return frame;
  }
}

function goodSettings(action: DeckAction, random: Random): Settings {
  switch (action) {
    case 'transport':
      return random.pick<Settings>([{ command: 'play', transport: 'main' }, { command: 'stop', transport: 'lobby' }, { command: 'gototrack', transport: 'main', track: 'Intro', playmode: 'stop' }]);
    case 'fps':
      return random.pick<Settings>([{ target: 60 }, { machine: 'actor-1', target: '59.94' }, {}]);
    case 'health':
      return random.pick<Settings>([{}, { machine: 'actor-2' }]);
    case 'level':
      return random.pick<Settings>([{ property: 'volume', transport: 'lobby', step: 0.05 }, { property: 'brightness', transport: 'main' }]);
    case 'clock':
      return random.pick<Settings>([{ transport: 'main' }, { transport: 'main', show: 'playhead' }, { transport: 'lobby', show: 'trackRemaining', warnAt: 30, flashAt: '5' }]);
  }
}
