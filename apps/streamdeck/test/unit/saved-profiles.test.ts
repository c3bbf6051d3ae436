/**
 * Keys as earlier releases saved them in Stream Deck profiles: the settings pages of the first release saved
 * playmodes in the documents' words, sections by name and then as decimal text, and left a field at its shown
 * default (a dial's "volume") unsaved; hand-edited profiles write commands in any case; global settings before
 * the hosts map held the address alone. Each still loads: it works as it did, or (a section saved by name) it
 * says what to choose again.
 */
import { playmodeToSend, type MediaServer, type MediaServerOptions } from '@stagelink/core';
import { ServerPool } from '../../src/state/connection/server-pool.js';
import { TileRegistry } from '../../src/tiles/tile-registry.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { palette } from '../../src/render/palette.js';
import { chooseHost, type HealthKeySettings, type JsonObject } from '../../src/settings.js';
import { fireCue, readCue } from '../../src/state/cues/cue.js';
import { FpsTile } from '../../src/tiles/fps-tile.js';
import { HealthTile } from '../../src/tiles/health-tile.js';
import { LevelTile } from '../../src/tiles/level-tile.js';
import { TransportTile } from '../../src/tiles/transport-tile.js';
import { readFace } from './face-reading.js';
import { dialRecorder, host, keyRecorder, quietLogger, stubPool, stubServer, transportList } from './stubs.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** What a transport key saved this way sends through core's `transport.send`. */
async function sentBy(settings: JsonObject): Promise<unknown[]> {
  const reading = readCue(settings);
  if (!reading.ok) throw new Error(reading.problem);
  const calls: unknown[][] = [];
  const server = { transport: { send: (...call: unknown[]) => (calls.push(call.slice(0, 3)), Promise.resolve()) } } as unknown as MediaServer;
  await fireCue(server, reading.cue);
  expect(calls).toHaveLength(1);
  return calls[0] ?? [];
}

describe('a transport key from an earlier release', () => {
  it.each([
    ['play', 'Play'],
    ['stop', 'Stop'],
    ['loop section', 'Loop'],
    ['play to end of section', 'PlaySection'],
  ])('sends its "then" saved as the words "%s", which core sends as %s', async (saved, playmode) => {
    const [command, transport, fields] = await sentBy({ command: 'gototrack', transport: 'main', track: 'Intro', playmode: saved });
    expect([command, transport, fields]).toEqual(['gototrack', { name: 'main' }, { track: { name: 'Intro' }, playmode: saved }]);
    expect(playmodeToSend((fields as { playmode: string }).playmode)).toBe(playmode);
  });

  it.each([['PLAY'], ['Play'], ['GoToNextTrack'], [' stop ']])('takes the command %j in any case', async (command) => {
    const [sent] = await sentBy({ command, transport: 'main' });
    expect(sent).toBe(command.trim().toLowerCase());
  });

  it('goes to a section saved as decimal text', async () => {
    expect(await sentBy({ command: 'gotosection', transport: 'main', track: 'Finale', section: '2' })).toEqual([
      'gotosection',
      { name: 'main' },
      { track: { name: 'Finale' }, section: 2 },
    ]);
  });

  it('takes a time and a frame saved as numbers', async () => {
    expect(await sentBy({ command: 'gototime', transport: 'main', time: 12.5 })).toEqual(['gototime', { name: 'main' }, { time: 12.5 }]);
    expect(await sentBy({ command: 'gotoframe', transport: 'main', frame: 250 })).toEqual(['gotoframe', { name: 'main' }, { frame: 250 }]);
  });

  it('talks to the server saved on the key itself', () => {
    expect(chooseHost('10.0.0.9', { host: '10.0.0.5' })).toEqual({ kind: 'host', host: '10.0.0.9' });
  });

  it('shows SET UP for a section saved by name, and asks in the log for it to be chosen again by its index', async () => {
    const key = keyRecorder();
    const logger = { warn: vi.fn() };
    const tile = new TransportTile(key.surface, { pool: stubPool(stubServer().asMediaServer), logger, visible: true });
    tile.configure({ command: 'gotosection', transport: 'main', track: 'Finale', section: 'Chorus' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain('>SET UP<');
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('"Chorus" is a name: choose it again by its index'));
    tile.dispose();
  });
});

describe('FPS, health and level keys from an earlier release', () => {
  it('reads an FPS key saved with a machine and a number target', () => {
    const stub = stubServer();
    const key = keyRecorder();
    const tile = new FpsTile(key.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ machine: 'actor-1', target: 60 }, host);
    expect(stub.live.open.map((subscription) => subscription.request)).toMatchObject([{ remoteMonitor: { hostname: 'actor-1' } }]);
    stub.live.setStatus('online');
    for (let i = 0; i < 10; i++) stub.live.emit(30);
    vi.advanceTimersByTime(300);
    // The target is read: far under it, the key is on the error colour; without one it would be neutral.
    expect(key.latest).toContain('>actor-1<');
    expect(key.latest).toContain('>30.0 FPS<');
    expect(readFace(key.latest).background).toBe(palette.error);
    tile.dispose();
  });

  it.each<[HealthKeySettings, string]>([
    [{}, 'SESSION'],
    [{ machine: 'media-2' }, 'media-2'],
  ])('reads a health key saved as %j', async (settings, scope) => {
    const stub = stubServer();
    const hostname = 'media-2';
    const machine = { uid: '2', name: hostname, hostname };
    const states = [{ name: 'x', detail: '', category: 'Output', severity: 'ok' }];
    stub.server.status.health.mockResolvedValue([{ machine, runningAsMachine: machine, status: { averageFPS: 60, videoDroppedFrames: 0, videoMissedFrames: 0, states } }]);
    const key = keyRecorder();
    const tile = new HealthTile(key.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure(settings, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain(`>${scope}<`);
    expect(key.latest).toContain('>OK<');
    tile.dispose();
  });

  it.each([
    [{ transport: 'main' }, 'setVolume', { volume: 0.51 }],
    [{ property: 'volume', transport: 'main', step: 0.05 }, 'setVolume', { volume: 0.55 }],
    [{ property: 'brightness', transport: 'main', step: 0.05 }, 'setBrightness', { brightness: 0.95 }],
  ] as const)('turns a level dial saved as %j', async (settings, call, body) => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transportList(0.5));
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure(settings, host);
    await vi.advanceTimersByTimeAsync(300);
    tile.rotate(call === 'setVolume' ? 1 : -1);
    await vi.advanceTimersByTimeAsync(300);
    expect(stub.server.transport[call]).toHaveBeenCalledWith({ transport: { name: 'main' }, ...body });
    expect(dial.alerts).toBe(0);
    tile.dispose();
  });
});

describe('global settings from an earlier release, before the hosts map', () => {
  /** A registry of keys over a pool whose clients are stand-ins; `made` is what each client was made with. */
  function desk() {
    const made: { options: MediaServerOptions; stub: ReturnType<typeof stubServer> }[] = [];
    const pool = new ServerPool({
      logger: quietLogger,
      idleCloseMs: 10,
      create: (options) => {
        const stub = stubServer();
        made.push({ options, stub });
        return stub.asMediaServer;
      },
    });
    return { made, pool, tiles: new TileRegistry(quietLogger) };
  }

  it.each([
    [{ host: '10.0.0.5' }],
    [{ host: '10.0.0.5', hosts: '' }],
    [{ host: '10.0.0.5', hosts: null }],
  ])('keep working from %j, with no hosts map given to core', (global) => {
    const { made, pool, tiles } = desk();
    const key = keyRecorder();
    tiles.appear('fps', { machine: 'actor-1' }, () => new FpsTile(key.surface, { pool, logger: quietLogger, visible: true }));
    tiles.globalSettingsChanged(global);
    expect(made.map(({ options }) => [options.host, options.hosts])).toEqual([['http://10.0.0.5', undefined]]);
    const live = made[0]?.stub.live;
    live?.setStatus('online');
    live?.emit(59.94);
    vi.advanceTimersByTime(300);
    expect(key.latest).toContain('>59.9 FPS<');
    tiles.disposeAll();
  });

  it('follow a hosts map added later: the keys move to a client made with it, and let go of the old one', () => {
    const { made, pool, tiles } = desk();
    const key = keyRecorder();
    tiles.appear('fps', {}, () => new FpsTile(key.surface, { pool, logger: quietLogger, visible: true }));
    tiles.globalSettingsChanged({ host: '10.0.0.6' });
    tiles.globalSettingsChanged({ host: '10.0.0.6', hosts: 'DIRECTOR01=10.0.0.5' });
    expect(made.map(({ options }) => options.hosts)).toEqual([undefined, { DIRECTOR01: '10.0.0.5' }]);
    expect(made[0]?.stub.live.open).toEqual([]);
    expect(made[1]?.stub.live.open).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(made[0]?.stub.server.close).toHaveBeenCalled();
    expect(made[1]?.stub.server.close).not.toHaveBeenCalled();
    tiles.disposeAll();
  });

  it('show SET UP for a hosts map that is not NAME=address lines, and log which entry', () => {
    const { made, pool } = desk();
    const key = keyRecorder();
    const logger = { warn: vi.fn() };
    const tiles = new TileRegistry(logger);
    tiles.appear('fps', {}, () => new FpsTile(key.surface, { pool, logger, visible: true }));
    tiles.globalSettingsChanged({ host: '10.0.0.6', hosts: 'DIRECTOR01 10.0.0.5' });
    vi.advanceTimersByTime(300);
    expect(key.latest).toContain('>SET UP<');
    expect(made).toEqual([]);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('Machine addresses: "DIRECTOR01 10.0.0.5" is not HOSTNAME=address'));
    tiles.disposeAll();
  });
});
