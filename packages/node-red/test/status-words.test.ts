import type { ShowClockSnapshot } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveText } from '../src/nodes/stagelink-clock/clock-feed.js';
import { eventSettingsOf } from '../src/nodes/stagelink-events/event-settings.js';
import { say, useRuntime } from '../src/shared/words.js';
import { eventually, flowWith, helper, nextMessage, nodeModules, statuses, useSimulator } from './support/harness.js';
import { catalogOf, LANGUAGES, nodeRedWords, type NodeRedWords } from './support/runtime-words.js';

/** What a status line holds at most: the editor shows it under the node, and Node-RED's own nodes keep to it. */
const MAX_STATUS = 20;

let words: NodeRedWords;

/**
 * The nodes as Node-RED loads them, with Node-RED's own translator as their `RED._` (the test helper's answers keys):
 * each status they show is in the language the test speaks.
 */
const speaking = (...types: Parameters<typeof nodeModules>): unknown[] =>
  nodeModules(...types).map((register) => (red: object) => (register as (red: object) => unknown)(new Proxy(red, { get: (target, key, receiver): unknown => (key === '_' ? words._ : Reflect.get(target, key, receiver)) })));

beforeAll(async () => {
  words = await nodeRedWords();
  useRuntime(words);
});

/** A transport's clock at a second of its track, in a section or none. */
function clock(playing: boolean, remaining: number, section?: number): ShowClockSnapshot {
  return {
    transport: { uid: '1', name: 'main' },
    status: 'online',
    playmode: playing ? 'Play' : 'Stop',
    playing,
    time: 3599 - remaining,
    track: { uid: 't', name: 'Act 1', length: 3599 },
    trackRemaining: remaining,
    ...(section === undefined ? {} : { section: { index: section, time: 0, elapsed: 0, remaining } }),
    cue: {},
    volume: 1,
    brightness: 1,
    engaged: true,
  };
}

describe.each(LANGUAGES)('status words in %s', (language) => {
  beforeAll(() => words.speak(language));
  const german = language === 'de';

  it('counts the show clock down in 20 characters, playing and stopped, in a section, a track, or at a timecode', () => {
    expect(liveText(clock(true, 11.2, 2))).toBe(german ? '▶ −0:12 · Abschn. 2' : '▶ −0:12 · section 2');
    expect(liveText(clock(false, 245, 2))).toBe(german ? '■ −4:05 · Abschn. 2' : '■ −4:05 · section 2');
    expect(liveText(clock(true, 1170))).toBe('▶ −19:30 · track'.replace('track', german ? 'Track' : 'track'));
    expect(liveText({ ...clock(false, 0), time: 30, track: { uid: 't', name: '', length: 0 } })).toBe('■ 00:00:30:00');
    for (const playing of [true, false]) {
      for (const remaining of [0.4, 59, 599, 3599]) {
        for (const section of [undefined, 0, 9]) expect(liveText(clock(playing, remaining, section)).length, liveText(clock(playing, remaining, section))).toBeLessThanOrEqual(MAX_STATUS);
      }
    }
  });

  it('says one and many as the language does, through Node-RED\'s plural rules', () => {
    expect([1, 4].map((count) => say('status.machinesOnline', { count }))).toEqual(german ? ['1 Maschine online', '4 Maschinen online'] : ['1 machine online', '4 machines online']);
    expect([1, 40].map((count) => say('status.versions', { count }))).toEqual(german ? ['1 Version', '40 Versionen'] : ['1 version', '40 versions']);
    expect(say('status.items', { count: 0 })).toBe(german ? '0 Einträge' : '0 items');
  });

  it('names a setting it cannot use in the language, not only the words around it', () => {
    expect(() => eventSettingsOf({ id: 'n', type: 'stagelink-events', interval: -1 })).toThrow(german ? /^Das Abfrageintervall muss eine positive Zahl sein/ : /^The poll interval must be a positive number/);
  });

  it('keeps every status form within 20 characters with two-digit counts and short names filled in', () => {
    const server = catalogOf(language)['stagelink-server'] as Record<string, Record<string, string>>;
    const values = { count: 99, skipped: 99, current: 12, last: 12, version: 12, max: 200, length: 400, index: 9, left: '12:34', state: '▶', time: '00:01:02:03', machine: 'ACTOR01', hostname: 'DIRECTOR01', severity: say('status.severityBusy'), preset: '2', value: '59.94', what: 'fps', folder: 'log', layer: 'Notch FX' };
    for (const group of ['state', 'status', 'summary']) {
      for (const key of Object.keys(server[group] ?? {}).filter((each) => !each.endsWith('_plural'))) {
        const text = say(`${group}.${key}`, values);
        expect(text.length, `${group}.${key}: "${text}"`).toBeLessThanOrEqual(MAX_STATUS);
      }
    }
  });
});

/** Real nodes on the simulator, their words from Node-RED's translator: what an operator sees under each. */
describe.each(LANGUAGES)('stagelink nodes showing their status in %s', (language) => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));
  beforeAll(() => words.speak(language));
  const german = language === 'de';

  const shown = async (nodeId: string, matches: RegExp): Promise<string> => {
    const seen = statuses(nodeId);
    await eventually(() => expect(seen.some((status) => matches.test(status.text ?? ''))).toBe(true));
    const text = seen.map((status) => status.text ?? '').find((each) => matches.test(each)) ?? '';
    expect(text.length, text).toBeLessThanOrEqual(MAX_STATUS);
    return text;
  };

  it('an events node: the machines it watches', async () => {
    await helper.load(speaking('stagelink-server', 'stagelink-events'), flowWith(sim, { type: 'stagelink-events', interval: 1, fpsTarget: 60, fpsWindow: 10, machines: '' }));
    expect(await shown('n1', /online/)).toBe(german ? '4 Maschinen online' : '4 machines online');
  });

  it('a clock node: the section counted down while the transport stands', async () => {
    await helper.load(speaking('stagelink-server', 'stagelink-clock'), flowWith(sim, { type: 'stagelink-clock', transport: 'main', transportType: 'str', rate: 4, thresholds: '', wires: [['out'], []] }));
    expect(await shown('n1', /−/)).toBe(german ? '■ −2:00 · Abschn. 0' : '■ −2:00 · section 0');
  });

  it('a transport node: a field it cannot use named in the language, with what it takes', async () => {
    await helper.load(speaking('stagelink-server', 'stagelink-transport'), flowWith(sim, { type: 'stagelink-transport', command: 'volume', transport: 'main', transportType: 'str' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ volume: 'loud' });
    expect((await caught).error?.message).toMatch(german ? /Error: Lautstärke \(0 bis 1\) muss eine Zahl sein/ : /Error: volume \(0 to 1\) must be a number/);
  });

  it('an OLED node: a hardware write with no machine named, said in the language', async () => {
    const flow = flowWith(sim, { type: 'stagelink-oled-out', machine: '', machineType: 'str', message: 'payload', messageType: 'msg' });
    // No SMC for the server either: the write has nowhere to go.
    delete (flow[1] as { smcs?: string }).smcs;
    await helper.load(speaking('stagelink-server', 'stagelink-oled-out'), flow);
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 'Doors open' });
    expect((await caught).error?.message).toMatch(german ? /Die OLED-Meldung wurde nicht gesendet: keine Maschine genannt/ : /The OLED notification was not sent: no machine named/);
  });

  it('a status node: notifications counted, and the session\'s director', async () => {
    await helper.load(speaking('stagelink-server', 'stagelink-status'), flowWith(sim, { type: 'stagelink-status', operation: '', machine: '', machineType: 'str', interval: 0 }));
    const seen = statuses('n1');
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'notifications' });
    const count = ((await out).payload as { notifications: unknown[] }[]).reduce((sum, entry) => sum + entry.notifications.length, 0);
    const one = german ? 'Meldung' : 'notification';
    const many = german ? 'Meldungen' : 'notifications';
    await eventually(() => expect(seen.at(-1)?.text).toBe(`${count} ${count === 1 ? one : many}`));
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'session' });
    await out;
    await eventually(() => expect(seen.at(-1)?.text).toMatch(german ? /^(solo|Director \S+)$/ : /^(solo|director \S+)$/));
    expect(seen.at(-1)?.text?.length).toBeLessThanOrEqual(MAX_STATUS);
  });
});
