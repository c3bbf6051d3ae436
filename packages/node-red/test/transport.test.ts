import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPlaying, MediaServer, toPlaymode, type TransportCommand } from '@stagelink/core';
import { SIDE_SCREENS_UID, type Simulator } from '@stagelink/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collect, control, eventually, flowWith, helper, nextMessage, nodeModules, simState, startSim, statuses } from './support/harness.js';
import type { Msg } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-transport');

describe('stagelink-transport', () => {
  let sim: Simulator;
  let ms: MediaServer;

  beforeAll(async () => {
    sim = await startSim();
    ms = new MediaServer({ host: sim.mediaServer.url });
  });
  afterAll(async () => {
    await ms.close();
    await sim.close();
  });
  beforeEach(async () => {
    await control(sim, { action: 'reset' });
  });
  afterEach(async () => {
    await helper.unload();
  });

  /** A transport as the simulator holds it, its playmode in core's words whichever dialect the simulator speaks. */
  const transportOf = async (name: string) => {
    const found = (await simState(sim)).transports.find((t) => t.name === name);
    return found && { ...found, playmode: toPlaymode(found.playmode) };
  };

  /** Where main stands now: its playhead from the simulator, its levels and engagement as the API reports them. */
  const mainNow = async () => {
    const { track, time, playmode } = sim.state.transports.positionOf({ name: 'main' });
    const { transports } = await ms.transport.transports();
    const main = transports.find(({ name }) => name === 'main');
    const speed = ((await simState(sim)).speeds)['main'];
    return { track: track.name, time, playmode: toPlaymode(playmode), volume: main?.volume, brightness: main?.brightness, engaged: main?.engaged, speed };
  };

  // Every command of the spec, with the fields it needs, from a place where it has a visible effect (main stopped
  // on "Act 1", or on "Intro", whose sections start at 0, 60 and 120 s and whose note "Lights cue 12" is at 60 s),
  // and where main stands after it. Tracks: Preshow (300 s), Intro, Act 1, Interval, Finale.
  interface Case {
    msg: Record<string, unknown>;
    from: { track: 'Act 1' | 'Intro'; section?: number; playing?: true };
    then: Partial<Awaited<ReturnType<typeof mainNow>>>;
  }
  const everyCommand: Record<TransportCommand, Case> = {
    play: { msg: {}, from: { track: 'Act 1' }, then: { track: 'Act 1', playmode: 'Play' } },
    stop: { msg: {}, from: { track: 'Act 1', playing: true }, then: { track: 'Act 1', playmode: 'Stop' } },
    playsection: { msg: {}, from: { track: 'Intro', section: 1 }, then: { track: 'Intro', playmode: 'PlaySection' } },
    playloopsection: { msg: {}, from: { track: 'Intro', section: 1 }, then: { track: 'Intro', playmode: 'Loop' } },
    returntostart: { msg: {}, from: { track: 'Act 1', playing: true }, then: { track: 'Preshow', time: 0, playmode: 'Stop' } },
    gototrack: { msg: { track: 'Finale', playmode: 'play' }, from: { track: 'Act 1' }, then: { track: 'Finale', playmode: 'Play' } },
    gotonexttrack: { msg: {}, from: { track: 'Act 1' }, then: { track: 'Interval', time: 0 } },
    gotoprevtrack: { msg: {}, from: { track: 'Act 1' }, then: { track: 'Intro', time: 0 } },
    gotosection: { msg: { section: '2' }, from: { track: 'Intro', section: 1 }, then: { track: 'Intro', time: 120 } },
    gotonextsection: { msg: {}, from: { track: 'Intro', section: 1 }, then: { track: 'Intro', time: 120 } },
    gotoprevsection: { msg: {}, from: { track: 'Intro', section: 1 }, then: { track: 'Intro', time: 0 } },
    gotonote: { msg: { note: 'Lights cue 12' }, from: { track: 'Intro' }, then: { track: 'Intro', time: 60 } },
    gototag: { msg: { tagType: 'CUE', tagValue: 'Q2', allowGlobalJump: true }, from: { track: 'Act 1' }, then: { track: 'Intro', time: 60 } },
    gototime: { msg: { time: 12.5 }, from: { track: 'Act 1' }, then: { track: 'Act 1', time: 12.5 } },
    // Without the TC tags a timecode is a time in the set list: 5 s into its first track.
    gototimecode: { msg: { timecode: '00:00:05:00', ignoreTags: true }, from: { track: 'Act 1' }, then: { track: 'Preshow', time: 5 } },
    // 30 frames per second.
    gotoframe: { msg: { frame: 120 }, from: { track: 'Act 1' }, then: { track: 'Act 1', time: 4 } },
    volume: { msg: { volume: 0.3 }, from: { track: 'Act 1' }, then: { volume: 0.3 } },
    brightness: { msg: { brightness: 0.4 }, from: { track: 'Act 1' }, then: { brightness: 0.4 } },
    engaged: { msg: { engaged: false }, from: { track: 'Act 1' }, then: { engaged: false } },
    // Offered by shipping builds only, once the project allows it (see the speed tests below).
    speed: { msg: { speed: 1.5 }, from: { track: 'Act 1' }, then: { speed: 1.5 } },
  };
  const dialect = process.env['STAGELINK_SIM_DIALECT'] === 'r34' ? 'r34' : 'spec';
  const offered = Object.entries(everyCommand).filter(([command]) => command !== 'speed' || dialect === 'r34');

  it.each(offered)('sends %s with its fields, moves the transport and passes on the cue', async (command, { msg, from, then }) => {
    await control(sim, { action: 'projectOption', name: 'enableTransportSpeedControl', on: true });
    await ms.transport.gotoTrack({ transport: { name: 'main' }, track: { name: from.track } });
    if (from.section) await ms.transport.gotoSection({ transport: { name: 'main' }, section: from.section });
    if (from.playing) await ms.transport.play({ name: 'main' });
    const before = await mainNow();
    // The command left blank in the node: msg.command chooses it.
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: '', transport: 'main', transportType: 'str' }));
    const seen = statuses('n1');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ command, ...msg });
    const { payload } = await out;
    const { track, ...fields } = msg;
    expect(payload).toEqual({ command, transports: [{ name: 'main' }], ...fields, ...(track ? { track: { name: track } } : {}) });
    expect(seen.at(-1)).toMatchObject({ fill: 'green' });
    const after = await mainNow();
    expect(after).toMatchObject(then);
    // Each case starts where the command has something to change.
    expect(after).not.toEqual(before);
  });

  it('goes to the track a gotosection names first, then to its section', async () => {
    await ms.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'Act 1' } });
    const { annotations } = await ms.transport.annotations({ name: 'Finale' });
    const section = annotations.sections.at(-1);
    if (!section) throw new Error("The simulator's track Finale has no sections");
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'gotosection', transport: 'main', transportType: 'str' }));
    const seen = statuses('n1');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ track: 'Finale', section: String(section.index) });
    await out;
    expect(await mainNow()).toMatchObject({ track: 'Finale', time: section.time });
    expect(seen.at(-1)).toMatchObject({ fill: 'green', text: `gotosection main → Finale ${section.index}` });
  });

  it('plays the transport named in the node and passes on what was sent', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'main', transportType: 'str' }));
    const seen = statuses('n1');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 1 });
    const msg = await out;
    expect(msg.payload).toEqual({ command: 'play', transports: [{ name: 'main' }] });
    expect((await transportOf('main'))?.playmode).toBe('Play');
    expect(seen.at(-1)).toMatchObject({ fill: 'green', text: 'play main' });
  });

  it('keeps its own filled-in settings over the msg, and takes the msg for the ones left blank', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'gototrack', transport: 'main', transportType: 'str', track: '', playmode: '' }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ command: 'stop', transport: 'lobby', track: 'Act 1', playmode: 'play' });
    const msg = await out;
    expect(msg.payload).toEqual({ command: 'gototrack', transports: [{ name: 'main' }], track: { name: 'Act 1' }, playmode: 'play' });
    expect(await transportOf('main')).toMatchObject({ currentTrack: 'Act 1', playmode: 'Play' });
  });

  it('runs a chained cue list: each node goes to its own track whatever the msg carried in', async () => {
    const flow = flowWith(sim, { type: 'stagelink-transport', command: 'gototrack', transport: 'main', transportType: 'str', track: 'Intro', trackType: 'str' });
    const first = flow.find((node) => node['id'] === 'n1');
    if (!first) throw new Error('flowWith lost the node under test');
    // n1 (Intro) → n2 (Finale) → out: the cue list of a show, fed by an inject that names another track.
    first['wires'] = [['n2']];
    flow.push({ id: 'n2', z: first['z'], type: 'stagelink-transport', server: 'server', command: 'gototrack', transport: 'main', transportType: 'str', track: 'Finale', trackType: 'str', wires: [['out']] });
    await helper.load(nodes, flow);
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ track: 'Act 1', command: 'stop' });
    const msg = await out;
    expect(msg.payload).toMatchObject({ command: 'gototrack', track: { name: 'Finale' } });
    // Nothing override-named rode on: the msg still says only what the inject gave it.
    expect(msg).toMatchObject({ track: 'Act 1', command: 'stop' });
    expect((await transportOf('main'))?.currentTrack).toBe('Finale');
  });

  it('takes the command from msg.command when the node leaves it to the msg, and says when there is none', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: '', transport: 'main', transportType: 'str' }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ command: 'play' });
    expect((await out).payload).toEqual({ command: 'play', transports: [{ name: 'main' }] });
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 1 });
    expect((await caught).error?.message).toMatch(/No command given: set it in the node or send it as msg\.command/);
  });

  it('keeps the node settings for msg properties that are empty strings', async () => {
    await helper.load(
      nodes,
      flowWith(sim, { type: 'stagelink-transport', command: 'gototrack', transport: 'main', transportType: 'str', track: 'Finale', trackType: 'str' }),
    );
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ command: '', transport: '', track: '', playmode: '' });
    expect((await out).payload).toEqual({ command: 'gototrack', transports: [{ name: 'main' }], track: { name: 'Finale' } });
    expect((await transportOf('main'))?.currentTrack).toBe('Finale');
  });

  it('addresses a transport by a uid above 2^53 without losing digits', async () => {
    await helper.load(
      nodes,
      flowWith(sim, { type: 'stagelink-transport', command: 'stop', transport: SIDE_SCREENS_UID, transportType: 'str', transportBy: 'uid' }),
    );
    expect((await transportOf('side screens'))?.playmode).not.toBe('Stop');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    expect((await out).payload).toEqual({ command: 'stop', transports: [{ uid: SIDE_SCREENS_UID }] });
    expect((await transportOf('side screens'))?.playmode).toBe('Stop');
  });

  it('reads a typed-input field from msg.payload (gototrack with the track in the payload)', async () => {
    await helper.load(
      nodes,
      flowWith(sim, { type: 'stagelink-transport', command: 'gototrack', transport: 'main', transportType: 'str', track: 'payload', trackType: 'msg' }),
    );
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 'Finale' });
    expect((await out).payload).toMatchObject({ command: 'gototrack', track: { name: 'Finale' } });
    expect((await transportOf('main'))?.currentTrack).toBe('Finale');
  });

  it('sets volume from msg.volume when the node leaves the volume blank', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'volume', transport: 'lobby', volume: '', volumeType: 'num' }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ volume: 0.75 });
    expect((await out).payload).toMatchObject({ command: 'volume', volume: 0.75 });
    const { transports } = await ms.transport.transports();
    expect(transports.find((t) => t.name === 'lobby')?.volume).toBeCloseTo(0.75);
  });

  it('carries many cues in flight at once without a listener-leak warning', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'main', transportType: 'str' }));
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const messages = collect('out');
      for (let cue = 0; cue < 32; cue++) helper.getNode('n1')?.receive({ payload: cue });
      await eventually(() => expect(messages).toHaveLength(32));
      // Node emits process warnings on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map(({ name, message }) => `${name}: ${message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('sends an unknown transport to Catch with the msg, shows red and sends nothing on', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'nowhere', transportType: 'str' }));
    const seen = statuses('n1');
    let forwarded = false;
    helper.getNode('out')?.on('input', () => (forwarded = true));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 'cue 7', _msgid: 'm1' });
    const msg = await caught;
    expect(msg.payload).toBe('cue 7');
    expect(msg.error?.message).toMatch(/nowhere/);
    expect(msg.error?.source?.id).toBe('n1');
    expect(seen.at(-1)).toMatchObject({ fill: 'red' });
    expect(forwarded).toBe(false);
  });

  it('still reaches Catch when the msg has own keys that break Node-RED\'s error routing (hardening)', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'nowhere', transportType: 'str' }));
    // An own hasOwnProperty makes Node-RED's Flow.handleError throw; an own __proto__ becomes the prototype of its clone.
    const shadowing = [{ hasOwnProperty: 'not a function' }, JSON.parse('{"__proto__": {"__proto__": null, "name": "main"}}') as Record<string, unknown>];
    for (const keys of shadowing) {
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ ...keys, payload: 'cue 8' });
      const msg = await caught;
      expect(msg.payload).toBe('cue 8');
      expect(msg.error?.message).toMatch(/nowhere/);
    }
  });

  it('reports an unreachable server to Catch, and fails the next cue at once rather than send it late', async () => {
    const flow = flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'main', transportType: 'str' });
    flow[1] = { id: 'server', type: 'stagelink-server', host: 'http://127.0.0.1:9' };
    await helper.load(nodes, flow);
    let caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/Could not reach 127\.0\.0\.1:9/);
    caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/was not sent: the server has not answered since .* A cue is never held back to land late/);
  });

  it('gives up on a server that does not answer after msg.timeout, and refuses a timeout that is no number of ms or too short to be one', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const flow = flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'main', transportType: 'str' });
      flow[1] = { id: 'server', type: 'stagelink-server', host: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, followDirector: false };
      await helper.load(nodes, flow);
      let caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ timeout: 300 });
      expect((await caught).error?.message).toMatch(/got no answer within 300 ms/);
      caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ timeout: '5s' });
      expect((await caught).error?.message).toMatch(/msg\.timeout must be a number of milliseconds from 100 to 120000/);
      // Seconds taken for milliseconds: refused before anything is sent, with the number meant.
      caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ timeout: 5 });
      expect((await caught).error?.message).toMatch(/msg\.timeout is in milliseconds: 5 would give the server 5 ms to answer\. For 5 seconds send 5000; the least is 100\./);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('reads msg.command by the client method name too, and passes on the one name it sent', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: '', transport: 'main', transportType: 'str' }));
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ command: 'gotoTrack', track: 'Finale' });
    expect((await out).payload).toMatchObject({ command: 'gototrack', track: { name: 'Finale' } });
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ command: 'SetVolume', volume: 0.25 });
    expect((await out).payload).toMatchObject({ command: 'volume', volume: 0.25 });
    expect(await mainNow()).toMatchObject({ track: 'Finale', volume: 0.25 });
  });

  it('refuses a command that is not a transport command, and a missing server, with a clear error', async () => {
    const flow = flowWith(sim, { type: 'stagelink-transport', command: '', transport: 'main', transportType: 'str' });
    await helper.load(nodes, flow);
    let caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ command: 'explode' });
    expect((await caught).error?.message).toMatch(/"explode" is not a transport command/);

    await helper.unload();
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', server: '', transport: 'main' }));
    caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/No media server configured/);
  });

  it('refuses a uid given as an unsafe JS number rather than cue the wrong transport', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: '', transportBy: 'uid' }));
    const caught = nextMessage('caught');
    // What a flow that parsed the uid as JSON would send: 9007199254740993 has already become ...992.
    helper.getNode('n1')?.receive({ transport: Number(SIDE_SCREENS_UID) });
    expect((await caught).error?.message).toMatch(/not exact as a number/);
    expect((await transportOf('side screens'))?.playmode).not.toBe('Play');
  });

  describe('on either dialect', () => {
    /** Sends a msg to the node under test; answers what came out or what Catch saw. */
    const cue = (msg: Record<string, unknown>): Promise<{ sent?: Msg; failed?: Msg }> => {
      const caught = nextMessage('caught');
      const out = nextMessage('out');
      helper.getNode('n1')?.receive(msg);
      return Promise.race([out.then((sent) => ({ sent })), caught.then((failed) => ({ failed }))]);
    };

    it('goes to section 1 by index', async () => {
      await ms.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'Intro' } });
      await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'gotosection', transport: 'main', transportType: 'str' }));
      expect(await cue({ section: 1 })).toHaveProperty('sent');
      expect(await mainNow()).toMatchObject({ track: 'Intro', time: 60 });
    });

    it.each([
      ['play', 'Play'],
      ['Play', 'Play'],
      ['loop section', 'Loop'],
      ['PlaySection', 'PlaySection'],
    ])('goes to a track with playmode %s set in the node and lands %s', async (playmode, landed) => {
      await helper.load(
        nodes,
        flowWith(sim, { type: 'stagelink-transport', command: 'gototrack', transport: 'main', transportType: 'str', track: 'Finale', trackType: 'str', playmode, playmodeType: 'str' }),
      );
      expect(await cue({})).toHaveProperty('sent');
      expect(await mainNow()).toMatchObject({ track: 'Finale', playmode: landed });
    });

    it.each([
      ['a number, as the editor saves it now', 'num'],
      ['text, as flows saved it before', 'str'],
    ])('reads the section index set in the node as %s', async (_how, sectionType) => {
      await ms.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'Intro' } });
      await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'gotosection', transport: 'main', transportType: 'str', section: '2', sectionType }));
      expect(await cue({})).toHaveProperty('sent');
      expect(await mainNow()).toMatchObject({ track: 'Intro', time: 120 });
    });

    it('refuses a section name before anything is sent, pointing to gotonote', async () => {
      await ms.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'Intro' } });
      await ms.transport.gotoTime({ transport: { name: 'main' }, time: 5 });
      await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'gotosection', transport: 'main', transportType: 'str' }));
      const { failed } = await cue({ track: 'Finale', section: 'Chorus' });
      expect(failed?.error?.message).toMatch(/not the name "Chorus": to jump to a name, use gotonote/);
      // Not even the step to the track was sent.
      expect(await mainNow()).toMatchObject({ track: 'Intro', time: 5 });
    });

    it('brings a speed the director refuses to Catch in the server\'s words, and sets it once the project allows it', async () => {
      await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'speed', transport: 'main', transportType: 'str', speed: '2', speedType: 'num' }));
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive({});
      const expected =
        sim.options.dialect === 'r34'
          ? /Transport speed control is disabled\. Enable the 'enableTransportSpeedControl' option to use it\./
          : /does not offer transport\.setSpeed/;
      expect((await caught).error?.message).toMatch(expected);
      if (sim.options.dialect === 'spec') return;
      await control(sim, { action: 'projectOption', name: 'enableTransportSpeedControl', on: true });
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({});
      await out;
      expect((await mainNow()).speed).toBe(2);
    });

    it('keeps cueing a director that follows from the address given, whatever name the director gives itself', async () => {
      await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'main', transportType: 'str' }));
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({});
      await out;
      expect(isPlaying(await mainNow())).toBe(true);
      const { director } = await ms.status.session();
      if (sim.options.dialect === 'r34') expect(director?.hostname).toBe('DIRECTOR01');
    });
  });
});
