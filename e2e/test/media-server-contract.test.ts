import {
  AuthError,
  ConfirmationRequiredError,
  endpointList,
  endpoints,
  HttpError,
  MediaServer,
  NotFoundError,
  NotOfferedError,
  StatusError,
  type EndpointInput,
  type EndpointName,
  type EndpointSpec,
  type GuardedCallOptions,
} from '@stagelink/core';
import { MAX_UINT64_UID, SIDE_SCREENS_UID, startSimulator, type LogEntry, type Simulator } from '@stagelink/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { control } from './support/simulator.js';

let sim: Simulator;
let ms: MediaServer;
/** A client with no SMC account: on r34 the account is sent with every hardware call, so this one stands for "not logged in". */
let anonymous: MediaServer;
let offers: (endpoint: EndpointSpec) => boolean;
/** Every request that reached the simulator, as `METHOD path`, from its own request log. */
const arrived: string[] = [];
const recordRequest = (entry: LogEntry): void => {
  if (entry.event === 'request') arrived.push(`${String(entry.method)} ${String(entry.path)}`);
};

const main = { name: 'main' };
const uid = expect.stringMatching(/^\d+$/) as unknown;
/** The dialect this run's simulator speaks: the suite runs once in each (STAGELINK_SIM_DIALECT). */
const dialect = process.env['STAGELINK_SIM_DIALECT'] === 'r34' ? 'r34' : 'spec';
/** The names each dialect gives the demo session's machines (see the simulator's README). */
const HOSTNAMES = {
  spec: { director: '127.0.0.1', actors: ['actor-1', 'actor-2'], understudy: 'understudy-1' },
  r34: { director: 'DIRECTOR01', actors: ['ACTOR01', 'ACTOR02'], understudy: 'UNDERSTUDY01' },
}[dialect];
/** The documents' simulator takes a login; on r34 the SMC account goes with every call, and this re-creates it after a clear-all. */
const login = () => control(sim.mediaServer.url, { action: 'login', loggedIn: true });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, log: recordRequest });
  // Hardware writes name their machine: its SMC on r34, its own address in the documents (which show no other).
  const smc = { host: sim.smc?.url ?? sim.mediaServer.url };
  ms = new MediaServer({ host: sim.mediaServer.url, retries: 0, timeoutMs: 5000, allowPython: true, smc: { ...smc, username: sim.smc?.username, password: sim.smc?.password } });
  anonymous = new MediaServer({ host: sim.mediaServer.url, retries: 0, timeoutMs: 5000, smc });
  const described = await ms.apiDescription();
  // The description covers the session and service families; hardware endpoints beyond the documents are r34's.
  offers = (endpoint) => described.offers(endpoint) && !(endpoint.family === 'hardware' && endpoint.beyondSpec && dialect === 'spec');
});

afterAll(async () => {
  await Promise.all([ms.close(), anonymous.close()]);
  await sim.close();
});

beforeEach(async () => {
  await control(sim.mediaServer.url, { action: 'reset' });
});

async function mainTransport() {
  const { transports } = await ms.transport.transports();
  const found = transports.find((transport) => transport.name === 'main');
  if (!found) throw new Error('the demo show has a transport named main');
  return found;
}

/** Runs a call that must be refused; answers the error so the test can check its class and words. */
async function refusal(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('Expected a refusal, but the call went through.');
    },
    (error: unknown) => error,
  );
}

describe('status', () => {
  it('lists the demo session: this director, two actors and an understudy, uids as strings', async () => {
    const session = await ms.status.session();
    expect(session).toMatchObject({ isRunningSolo: false, director: { uid, hostname: HOSTNAMES.director } });
    expect(session.actors.map((machine) => machine.hostname)).toEqual(HOSTNAMES.actors);
    expect(session.understudies).toEqual([{ uid, name: 'Understudy 1', hostname: HOSTNAMES.understudy, type: 'understudy', guiMode: 'normal', guiVisible: true }]);
  });

  it('reports health, notifications and the project in the spec shapes', async () => {
    const health = await ms.status.health();
    expect(health).toHaveLength(4);
    for (const entry of health) {
      expect(entry).toMatchObject({ machine: { uid }, runningAsMachine: { uid }, status: { averageFPS: expect.any(Number) as unknown } });
      expect(entry.status.states.map((state) => state.category.toLowerCase())).toEqual(['connection', 'output', 'genlock', 'devices']);
    }
    expect(health.flatMap((entry) => entry.status.states).map((state) => state.severity)).toContain('warning');
    expect((await ms.status.notifications()).some((entry) => entry.notifications.length > 0)).toBe(true);
    expect(await ms.status.project()).toMatchObject({ projectPath: expect.any(String) as unknown, version: { major: expect.any(Number) as unknown } });
  });

  it('sets the GUI mode of a machine, and refuses an unknown machine by name', async () => {
    await ms.status.setGuiMode({ machine: { name: 'Actor 2' }, mode: 'locked' });
    expect((await ms.status.session()).actors[1]?.guiMode).toBe('locked');
    const error = await refusal(ms.status.setGuiMode({ machine: { name: 'Actor 9' }, mode: 'locked' }));
    expect(error).toBeInstanceOf(StatusError);
    // The documents' simulator borrows gRPC's NOT_FOUND; shipping directors answer 4000 for any bad argument.
    expect((error as StatusError).statusCode).toBe(dialect === 'r34' ? 4000 : 5);
    expect((error as StatusError).message).toContain('Machine "Actor 9" not found');
  });
});

describe('transport', () => {
  it('play, then activetransport shows playmode Play', async () => {
    await ms.transport.play(main);
    const active = await ms.transport.activeTransport();
    expect(active.find((transport) => transport.name === 'main')?.playmode).toBe('Play');
  });

  it('activetransport returns every sub-transport of the selected multitransport', async () => {
    expect((await ms.transport.activeTransport()).map((transport) => transport.name)).toEqual(['main', 'side screens']);
    await control(sim.mediaServer.url, { action: 'selectTransport', transport: { name: 'lobby' } });
    expect((await ms.transport.activeTransport()).map((transport) => transport.name)).toEqual(['lobby']);
  });

  it('gototrack moves currentTrack, with the playmode asked for', async () => {
    await ms.transport.gotoTrack({ transport: main, track: { name: 'Act 1' }, playmode: 'play' });
    expect(await mainTransport()).toMatchObject({ currentTrack: { uid, name: 'Act 1' }, playmode: 'Play' });
  });

  it('keeps a uint64 uid unchanged through a goto, the tracks list and the annotations query', async () => {
    await ms.transport.gotoTrack({ transport: main, track: { uid: MAX_UINT64_UID } });
    expect((await mainTransport()).currentTrack).toEqual({ uid: MAX_UINT64_UID, name: 'Finale' });
    expect((await ms.transport.tracks()).map((track) => track.uid)).toContain(MAX_UINT64_UID);
    expect(await ms.transport.annotations({ uid: MAX_UINT64_UID })).toMatchObject({ uid: MAX_UINT64_UID, name: 'Finale' });
    const { transports, multitransports } = await ms.transport.transports();
    expect(transports.map((transport) => transport.uid)).toContain(SIDE_SCREENS_UID);
    expect(multitransports[0]?.transports).toContain(SIDE_SCREENS_UID);
  });

  it('moves the playhead with every goto', async () => {
    const position = () => sim.state.transports.positionOf(main);
    await ms.transport.gotoTime({ transport: main, time: 12.5 });
    expect(position().time).toBe(12.5);
    await ms.transport.gotoFrame({ transport: main, frame: 60 });
    expect(position().time).toBe(2);
    await ms.transport.gotoSection({ transport: main, section: 1 });
    expect(position().time).toBe(120);
    await ms.transport.gotoNextSection({ transport: main });
    expect(position().time).toBe(240);
    await ms.transport.gotoPrevSection({ transport: main });
    expect(position().time).toBe(120);
    await ms.transport.gotoNextTrack({ transport: main });
    expect(position().track.name).toBe('Intro');
    await ms.transport.gotoPrevTrack({ transport: main });
    expect(position().track.name).toBe('Preshow');
    await ms.transport.gotoNote({ transport: main, note: 'Pyro standby' });
    expect(position()).toMatchObject({ track: { name: 'Act 1' }, time: 300 });
    await ms.transport.gotoTag({ transport: main, type: 'CUE', value: 'Q5', allowGlobalJump: true });
    expect(position()).toMatchObject({ track: { name: 'Finale' }, time: 200 });
    await ms.transport.gotoTimecode({ transport: main, timecode: '10:05:30:00' });
    expect(position()).toMatchObject({ track: { name: 'Intro' }, time: 30 });
  });

  it('sets the playmodes of play section, loop section, stop and return to start', async () => {
    await ms.transport.playSection(main);
    expect((await mainTransport()).playmode).toBe('PlaySection');
    await ms.transport.playLoopSection(main);
    expect((await mainTransport()).playmode).toBe('Loop');
    await ms.transport.stop(main);
    expect((await mainTransport()).playmode).toBe('Stop');
    await ms.transport.gotoTrack({ transport: main, track: { name: 'Intro' }, playmode: 'play' });
    await ms.transport.returnToStart(main);
    expect(await mainTransport()).toMatchObject({ playmode: 'Stop', currentTrack: { name: 'Preshow' } });
  });

  it('sets volume, brightness and engaged', async () => {
    await ms.transport.setVolume({ transport: main, volume: 0.4 });
    await ms.transport.setBrightness({ transport: main, brightness: 0.6 });
    await ms.transport.setEngaged({ transport: main, engaged: false });
    expect(await mainTransport()).toMatchObject({ volume: 0.4, brightness: 0.6, engaged: false });
  });

  it('toggles engaged from the state the server reports at the call, a multitransport included', async () => {
    await ms.transport.setEngaged({ transport: main, engaged: true });
    expect(await ms.transport.toggleEngaged(main)).toBe(false);
    expect(await mainTransport()).toMatchObject({ engaged: false });
    expect(await ms.transport.toggleEngaged(main)).toBe(true);
    expect(await mainTransport()).toMatchObject({ engaged: true });
    const multi = (await ms.transport.transports()).multitransports[0];
    if (!multi) throw new Error('The simulated show has a multitransport');
    expect(await ms.transport.toggleEngaged({ name: multi.name })).toBe(!multi.engaged);
    expect((await ms.transport.transports()).multitransports[0]?.engaged).toBe(!multi.engaged);
  });

  it('refuses to toggle a transport the server does not list, sending nothing', async () => {
    const from = arrived.length;
    const error = await ms.transport.toggleEngaged({ name: 'foyer' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STAGELINK_ERR_INVALID_INPUT', message: expect.stringMatching(/"foyer" is not on the server/) as unknown });
    expect(arrived.slice(from).filter((request) => request.startsWith('POST'))).toEqual([]);
  });

  it('lists set lists and tracks in the spec shapes', async () => {
    const setLists = await ms.transport.setLists();
    expect(setLists.map((setList) => setList.name)).toEqual(['Main show', 'Side screens', 'Lobby']);
    expect(setLists[0]?.tracks[0]).toEqual({ uid, name: 'Preshow', length: 300, crossfade: 'cut' });
    expect(await ms.transport.annotations({ name: 'Intro' })).toMatchObject({ annotations: { sections: [{ time: 0, index: 0 }, { time: 60, index: 1 }, { time: 120, index: 2 }] } });
  });

  it('refuses a transport or track that does not exist with a StatusError naming it', async () => {
    const transport = await refusal(ms.transport.play({ name: 'foyer' }));
    expect(transport).toBeInstanceOf(StatusError);
    expect((transport as StatusError).message).toContain('Transport "foyer" not found');
    const track = await refusal(ms.transport.gotoTrack({ transport: main, track: { name: 'Encore' } }));
    expect((track as StatusError).message).toContain('Track "Encore" not found');
  });
});

describe('mixed reality', () => {
  const stageCal = { name: 'Stage cal' };
  const observations = async () => (await ms.mixedReality.spatialCalibrations()).find((calibration) => calibration.name === 'Stage cal')?.observations ?? [];

  it('lists cameras, MR sets and calibrations in the spec shapes', async () => {
    expect((await ms.mixedReality.cameras())[0]).toEqual({ uid, name: 'Camera A', spatialCalibration: { uid, name: 'Stage cal' } });
    expect((await ms.mixedReality.mrSets())[0]).toEqual({ uid, name: 'Main MR set', currentCamera: { uid, name: 'Camera A' }, isCameraOverride: false });
    expect((await observations())[0]).toMatchObject({ uid, trackedPose: { position: { x: expect.any(Number) as unknown } }, isEnabled: true });
  });

  it('runs one capture at a time: a second concurrent capture is refused', async () => {
    expect(await ms.mixedReality.captureProgress()).toBe(false);
    await ms.mixedReality.captureObservation({ camera: { name: 'Camera A' }, spatialCalibration: stageCal });
    expect(await ms.mixedReality.captureProgress()).toBe(true);
    const second = await refusal(ms.mixedReality.captureObservation({ camera: { name: 'Crane' }, spatialCalibration: { name: 'Crane cal' } }));
    expect(second).toBeInstanceOf(StatusError);
    expect((second as StatusError).statusCode).not.toBe(0);
    expect((second as StatusError).message).toContain('only one capture runs at a time');
  });

  it('enables, deletes and clears observations', async () => {
    const [first, second] = await observations();
    await ms.mixedReality.enableObservations([{ uid: first?.uid ?? '', enable: false }]);
    expect((await observations())[0]?.isEnabled).toBe(false);
    await ms.mixedReality.deleteObservations([second?.uid ?? '']);
    expect(await observations()).toHaveLength(2);
    await ms.mixedReality.deleteAllObservations(stageCal);
    expect(await observations()).toEqual([]);
  });

  it('overrides the camera of an MR set and selects the calibration of a camera', async () => {
    await ms.mixedReality.selectCamera({ mrSet: { name: 'Main MR set' }, cameraOverride: { name: 'Camera B' } });
    expect((await ms.mixedReality.mrSets())[0]).toMatchObject({ currentCamera: { name: 'Camera B' }, isCameraOverride: true });
    await ms.mixedReality.selectSpatialCalibration({ camera: { name: 'Camera A' }, spatialCalibration: { name: 'Crane cal' } });
    expect((await ms.mixedReality.cameras())[0]?.spatialCalibration.name).toBe('Crane cal');
  });
});

describe('quick calibration', () => {
  const projector2 = { name: 'Projector 2' };

  it('counts lineups of a projector and resets them', async () => {
    const [point] = await ms.quickcal.referencePoints();
    expect(point).toEqual({ uid, name: 'Point A' });
    expect(await ms.quickcal.projectorCalibration(projector2)).toMatchObject({ requiredLineups: 4, currentLineups: 0, usedCalibrationMethod: 'none', fixedThrowRatio: true });
    await ms.quickcal.lineupCurrentPose({ projector: projector2, referencePoint: { name: 'Point A' }, position: { x: 100, y: 200 } });
    expect((await ms.quickcal.projectorCalibration(projector2)).currentLineups).toBe(1);
    await ms.quickcal.resetLineup(projector2);
    expect((await ms.quickcal.projectorCalibration(projector2)).currentLineups).toBe(0);
  });

  it('copies a calibration to the manual fields, and refuses when there is none', async () => {
    await ms.quickcal.overwriteManualCalibration({ name: 'Projector 1' });
    expect(await ms.quickcal.projectorCalibration({ name: 'Projector 1' })).toMatchObject({ selectedCalibrationMethod: 'manual', usedCalibrationMethod: 'manual' });
    expect(await refusal(ms.quickcal.overwriteManualCalibration(projector2))).toBeInstanceOf(StatusError);
  });
});

describe('failover', () => {
  it('failover, then the session shows the understudy in place of the actor', async () => {
    const before = await ms.status.session();
    await ms.failover.failoverMachine({ name: 'Actor 1' });
    const after = await ms.status.session();
    expect(after.actors[0]).toEqual(before.understudies[0]);
    expect(after.actors[1]).toEqual(before.actors[1]);
    expect(after.understudies).toEqual([]);
    expect(await ms.failover.settings()).toEqual({ timeout: 10, normalPreset: 'Default routing', currentPreset: 'Failover routing' });
  });

  it('restores the actor, and default routing comes back with applydefaultrouting', async () => {
    const before = await ms.status.session();
    await ms.failover.failoverMachine({ name: 'Actor 1' });
    await ms.failover.restoreMachine({ name: 'Actor 1' });
    expect(await ms.status.session()).toEqual(before);
    expect((await ms.failover.settings()).currentPreset).toBe('Failover routing');
    await ms.failover.applyDefaultRouting();
    expect((await ms.failover.settings()).currentPreset).toBe('Default routing');
  });

  it('maps actors to understudies, and refuses to fail over a machine that is not an actor', async () => {
    const [actor1 = '', actor2 = ''] = HOSTNAMES.actors;
    expect(await ms.failover.understudyTargets()).toEqual({ [actor1]: HOSTNAMES.understudy, [actor2]: HOSTNAMES.understudy });
    expect(await refusal(ms.failover.failoverMachine({ name: 'Director' }))).toBeInstanceOf(StatusError);
  });
});

describe('sequencing and notes', () => {
  it('points an indirection at another of its resources, and refuses others', async () => {
    const [backdrop] = await ms.sequencing.indirections();
    expect(backdrop).toMatchObject({ name: 'Backdrop', resourceType: 'video', currentResource: { name: 'sunrise.mov' } });
    const resources = await ms.sequencing.indirectionResources({ name: 'Backdrop' });
    await ms.sequencing.changeIndirections([{ indirection: { name: 'Backdrop' }, resource: { uid: resources[2]?.uid ?? '' } }]);
    expect((await ms.sequencing.indirections())[0]?.currentResource.name).toBe('city.mov');
    expect(await refusal(ms.sequencing.changeIndirections([{ indirection: { name: 'Backdrop' }, resource: { name: 'logo-white.png' } }]))).toBeInstanceOf(StatusError);
  });

  it('lists notes by start and count, reads one and creates one', async () => {
    expect((await ms.notes.list({ start: 2, count: 2 })).map((note) => note.note.name)).toEqual(['Cast list', 'Stage manager']);
    expect(await ms.notes.get({ name: 'Safety' })).toEqual({ note: { uid, name: 'Safety' }, text: 'Pyro cleared by the fire officer.' });
    expect(await ms.notes.set({ note: { name: 'Curtain' }, text: 'Down at 22:10' })).toEqual({ note: { uid, name: 'Curtain' }, text: 'Down at 22:10' });
    expect(await ms.notes.list({ start: 6 })).toHaveLength(1);
  });
});

describe('shot recorder, looks and colour', () => {
  it('starts and stops recording, refusing a second start', async () => {
    await ms.shotRecorder.record({ engage: true, name: 'Wide', slate: '2B', take: 3 });
    expect(await ms.shotRecorder.recorders()).toEqual([{ engaged: true, name: 'Wide', slate: '2B', take: 3 }]);
    expect(await refusal(ms.shotRecorder.record({ engage: true, name: 'Wide', slate: '2B', take: 4 }))).toBeInstanceOf(StatusError);
    await ms.shotRecorder.record({ engage: false, name: 'Wide', slate: '2B', take: 3 });
    expect((await ms.shotRecorder.recorders())[0]?.engaged).toBe(false);
  });

  it('lists looks (where the build has them) and sets a CDL', async () => {
    if (dialect === 'r34') expect(await refusal(ms.looks.list())).toBeInstanceOf(NotOfferedError);
    else expect((await ms.looks.list())[0]).toMatchObject({ uid, address: 'looks/warm', fields: [{ type: 'float' }, { type: 'string' }, { type: 'resource' }] });
    const [grade] = await ms.colour.cdls();
    if (!grade) throw new Error('the demo has CDLs');
    await ms.colour.setCdl({ ...grade, saturation: 0.5 });
    expect((await ms.colour.cdls())[0]).toEqual({ ...grade, saturation: 0.5 });
  });
});

describe('media files and system information', () => {
  it('lists, provisions and removes media files', async () => {
    expect((await ms.media.list('video/loops')).map((file) => file.path)).toEqual(['video/loops/ocean.mov', 'video/loops/sunrise.mov', 'video/loops/city.mov']);
    const [task] = await ms.media.provision({ mediaPath: 'https://cdn.example/opener.mov', localPath: ['video/opener.mov'], uid: '' });
    expect(task).toMatchObject({ taskUid: uid, success: true, taskType: 'download' });
    expect((await ms.media.list('video')).map((file) => file.path)).toContain('video/opener.mov');
    expect(await ms.media.remove('video/loops')).toMatch(/^\d+$/);
    expect(await refusal(ms.media.list('video/loops'))).toBeInstanceOf(StatusError);
  });

  it('describes the machines of the network', async () => {
    const systems = await ms.system.detectSystems();
    expect(systems.map((system) => system.hostname)).toEqual([HOSTNAMES.director, ...HOSTNAMES.actors, HOSTNAMES.understudy]);
    expect(systems[0]).toMatchObject({ ipAddress: '127.0.0.1', isAppRunning: true, isServiceRunning: true, version: { major: 31 } });
    expect(await ms.system.osInfo()).toHaveLength(4);
    expect((await ms.system.vfcs())[0]).toMatchObject({ slot: 1, type: 'DP-4', firmwareVersion: expect.any(String) as unknown });
  });
});

describe('hardware', () => {
  const writes = endpointList.filter(
    (endpoint) => endpoint.family === 'hardware' && endpoint.method === 'POST' && endpoint.id !== 'whoami' && !(endpoint.beyondSpec && dialect === 'spec'),
  );

  it.each(writes.map((endpoint) => [endpoint.id, endpoint] as const))('%s without login gives AuthError "login required"', async (_id, endpoint) => {
    const error = await refusal(anonymous.call(endpoint, { body: {}, params: { mac: '00-00-00-00-00-00' } }, { confirm: true }));
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).status).toBe(401);
    expect((error as AuthError).body).toEqual({ message: dialect === 'r34' ? 'Login required' : 'login required' });
  });

  it('gives NotFoundError for an unknown MAC', async () => {
    const error = await refusal(ms.hardware.networkAdapters.get('00-11-22-33-44-55'));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('reads and writes network adapters by MAC once logged in', async () => {
    await login();
    const [adapter] = await ms.hardware.networkAdapters.list();
    if (!adapter) throw new Error('the demo has network adapters');
    expect(await ms.hardware.networkAdapters.get(adapter.mac.toLowerCase())).toEqual(adapter);
    expect(await ms.hardware.networkAdapters.update(adapter.mac, { ...adapter, ip: '10.0.0.99' })).toEqual({ message: 'ok' });
    expect((await ms.hardware.networkAdapters.get(adapter.mac)).ip).toBe('10.0.0.99');
  });

  it('answers 400 to a body of the wrong shape', async () => {
    await login();
    const error = await refusal(ms.call(endpoints.sessionRoleSet, { body: { role: 42 } }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
  });

  it('shows OLED notifications cut to 200 characters and sets the display time', async () => {
    await login();
    const shown = await ms.hardware.oled.notify({ title: 'Front of house', message: 'm'.repeat(230) });
    expect(shown).toMatchObject({ title: 'Front of house', truncated: true });
    expect(shown.message).toHaveLength(200);
    const raw = await ms.call(endpoints.oledNotify, { body: { title: 't', message: 'r'.repeat(230) } });
    expect((raw as { message: string }).message).toHaveLength(200);
    expect((await ms.hardware.oled.setDisplayTime(4)).message).toContain('4 seconds');
    expect(sim.state.hardware.oled.displaySeconds).toBe(4);
  });

  it('clears the SMC database when confirmed, which erases the accounts and logs out', async () => {
    await login();
    expect(await ms.hardware.smc.clearAll({ confirm: true })).toEqual({ message: 'ok' });
    expect(await ms.hardware.smc.get()).toMatchObject({ Database: 'cleared', 'User accounts': '0' });
    expect(await refusal(ms.hardware.smc.set({ Note: 'hello' }))).toBeInstanceOf(AuthError);
  });

  it('takes SMC values as text and leaves the status as it was, refusing other values with 400', async () => {
    await login();
    const before = await ms.hardware.smc.get();
    expect(await ms.hardware.smc.set({ Note: 'hello' })).toEqual({ message: 'ok' });
    expect(await ms.hardware.smc.get()).toEqual(before);
    const error = await refusal(ms.hardware.smc.set({ Note: 5 } as never));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
  });

  it('replaces the whole list of network adapters', async () => {
    await login();
    const replacement = [{ name: 'eth9', ip: '10.1.2.3', mac: '00-1A-2B-3C-4D-99', netmask: '255.255.0.0' }];
    expect(await ms.hardware.networkAdapters.replace(replacement)).toEqual({ message: 'ok' });
    expect(await ms.hardware.networkAdapters.list()).toEqual(replacement);
  });

  it('powers the chassis back on, with power on and with a confirmed power cycle', async () => {
    await login();
    const power = async () => (await ms.hardware.chassis.powerStatus()).systemPower;
    await ms.hardware.chassis.powerOff({ confirm: true });
    expect(await ms.hardware.chassis.powerOn()).toEqual({ message: 'ok' });
    expect(await power()).toBe('on');
    await ms.hardware.chassis.powerOff({ confirm: true });
    expect(await ms.hardware.chassis.powerCycle({ confirm: true })).toEqual({ message: 'ok' });
    expect(await power()).toBe('on');
  });

  it('blinks the machine with whoami, without a login', async () => {
    const before = sim.state.hardware.chassis.identifications;
    await ms.hardware.chassis.whoami();
    expect(sim.state.hardware.chassis.identifications).toBe(before + 1);
  });

  it('reports and changes chassis power, SMC, cards, local machine and role', async () => {
    await login();
    await ms.hardware.chassis.powerOff({ confirm: true });
    expect(await ms.hardware.chassis.powerStatus()).toMatchObject({ systemPower: 'off' });
    expect((await ms.hardware.chassis.stats())['System Power']).toBe('off');
    await ms.hardware.smc.enableDowngrade({ confirm: true });
    expect((await ms.hardware.smc.get())['Downgrade']).toBe('permitted');
    await ms.hardware.vfcs.replace([{ slot: 2, type: 'SDI-4', status: 'ok' }]);
    expect(await ms.hardware.vfcs.list()).toEqual([{ slot: 2, type: 'SDI-4', status: 'ok' }]);
    await ms.hardware.localMachine.set({ hostname: 'stage-left', serial: 'SL-1', type: 'actor' });
    expect(await ms.hardware.localMachine.get()).toEqual({ hostname: 'stage-left', serial: 'SL-1', type: 'actor' });
    await ms.hardware.sessionRole.set({ role: 'actor' });
    expect(await ms.hardware.sessionRole.get()).toEqual({ role: 'actor' });
  });
});

describe('guarded operations', () => {
  /** Each guarded operation through its typed method. */
  const guarded = {
    smcClearAll: (options?: GuardedCallOptions) => ms.hardware.smc.clearAll(options as GuardedCallOptions),
    smcEnableDowngrade: (options?: GuardedCallOptions) => ms.hardware.smc.enableDowngrade(options as GuardedCallOptions),
    powerOff: (options?: GuardedCallOptions) => ms.hardware.chassis.powerOff(options as GuardedCallOptions),
    powerCycle: (options?: GuardedCallOptions) => ms.hardware.chassis.powerCycle(options as GuardedCallOptions),
  } satisfies Partial<Record<EndpointName, unknown>>;
  const guardedPaths = Object.keys(guarded).map((id) => `POST ${endpoints[id as EndpointName].path}`);
  /** Nothing here is `confirm: true`, however a caller without types might write it. */
  const notConfirmations: [string, GuardedCallOptions | undefined][] = [
    ['no options', undefined],
    ['no confirm', {}],
    ['confirm false', { confirm: false }],
    ["confirm 'true'", { confirm: 'true' as never }],
    ['confirm 1', { confirm: 1 as never }],
  ];

  it('of the hardware family are exactly SMC clear-all, enable downgrade, chassis power off and power cycle', () => {
    const ids = endpointList.filter((endpoint) => endpoint.guarded && endpoint.family === 'hardware').map((endpoint) => endpoint.id);
    expect(ids.sort()).toEqual(Object.keys(guarded).sort());
  });

  it.each(notConfirmations)('are refused with %s, and nothing reaches the machine', async (_label, options) => {
    await login();
    const smcBefore = await ms.hardware.smc.get();
    const from = arrived.length;
    for (const [id, call] of Object.entries(guarded)) {
      expect(await refusal(call(options)), id).toBeInstanceOf(ConfirmationRequiredError);
    }
    expect(arrived.slice(from)).toEqual([]);
    expect(await ms.hardware.smc.get()).toEqual(smcBefore);
    expect(sim.state.hardware.chassis.power).toBe('on');
  });

  it('reach the machine when confirmed', async () => {
    await login();
    const from = arrived.length;
    for (const call of Object.values(guarded)) {
      await login(); // clearing the SMC database logs out
      await call({ confirm: true });
    }
    expect(arrived.slice(from).filter((request) => guardedPaths.includes(request))).toEqual(guardedPaths);
  });
});

describe('the catalogue', () => {
  /** A valid request for every endpoint; the record type makes a new catalogue entry fail to compile here. */
  const requests: Record<EndpointName, () => EndpointInput> = {
    health: () => ({}),
    notifications: () => ({}),
    project: () => ({}),
    session: () => ({}),
    setGuiMode: () => ({ body: { machine: { name: 'Actor 1' }, mode: 'normal' } }),
    activeTransport: () => ({}),
    annotations: () => ({ query: { name: 'Intro' } }),
    setLists: () => ({}),
    tracks: () => ({}),
    transports: () => ({}),
    brightness: () => ({ body: { transports: [{ transport: main, brightness: 0.5 }] } }),
    engaged: () => ({ body: { transports: [{ transport: main, engaged: true }] } }),
    volume: () => ({ body: { transports: [{ transport: main, volume: 0.5 }] } }),
    speed: () => ({ body: { transports: [{ transport: main, speed: 1.5 }] } }),
    gotoFrame: () => ({ body: { transports: [{ transport: main, frame: 30, playmode: 'Stop' }] } }),
    gotoNextSection: () => ({ body: { transports: [{ transport: main }] } }),
    gotoPrevSection: () => ({ body: { transports: [{ transport: main }] } }),
    gotoNextTrack: () => ({ body: { transports: [{ transport: main }] } }),
    gotoPrevTrack: () => ({ body: { transports: [{ transport: main }] } }),
    gotoNote: () => ({ body: { transports: [{ transport: main, note: 'Lights cue 12' }] } }),
    gotoSection: () => ({ body: { transports: [{ transport: main, section: '2' }] } }),
    gotoTag: () => ({ body: { transports: [{ transport: main, type: 'CUE', value: 'Q2', allowGlobalJump: true }] } }),
    gotoTime: () => ({ body: { transports: [{ transport: main, time: 10 }] } }),
    gotoTimecode: () => ({ body: { transports: [{ transport: main, timecode: '10:00:01:00', ignoreTags: false }] } }),
    gotoTrack: () => ({ body: { transports: [{ transport: main, track: { name: 'Intro' }, playmode: 'Play' }] } }),
    play: () => ({ body: { transports: [main] } }),
    playLoopSection: () => ({ body: { transports: [main] } }),
    playSection: () => ({ body: { transports: [main] } }),
    returnToStart: () => ({ body: { transports: [main] } }),
    stop: () => ({ body: { transports: [main] } }),
    cameras: () => ({}),
    mrSets: () => ({}),
    spatialCalibrations: () => ({}),
    captureProgress: () => ({}),
    captureObservation: () => ({ body: { camera: { name: 'Camera A' }, spatialCalibration: { name: 'Stage cal' } } }),
    deleteAllObservations: () => ({ body: { spatialCalibration: { name: 'Crane cal' } } }),
    deleteObservations: () => ({ body: { observations: [stageObservationUid(0)] } }),
    enableObservations: () => ({ body: { observations: [{ uid: stageObservationUid(1), enable: false }] } }),
    selectCamera: () => ({ body: { mrSet: { name: 'Main MR set' }, cameraOverride: { name: 'Crane' } } }),
    selectSpatialCalibration: () => ({ body: { camera: { name: 'Crane' }, spatialCalibration: { name: 'Stage cal' } } }),
    lineupCurrentPose: () => ({ body: { projector: { name: 'Projector 2' }, referencePoint: { name: 'Point B' }, position: { x: 1, y: 2 } } }),
    overwriteManualCalibration: () => ({ body: { projector: { name: 'Projector 1' } } }),
    resetLineup: () => ({ body: { projector: { name: 'Projector 2' } } }),
    projectorCalibration: () => ({ query: { name: 'Projector 1' } }),
    referencePoints: () => ({}),
    applyDefaultRouting: () => ({}),
    failoverMachine: () => ({ body: { machine: { name: 'Actor 2' } } }),
    restoreMachine: () => ({ body: { machine: { name: 'Actor 2' } } }),
    failoverSettings: () => ({}),
    understudyTargets: () => ({}),
    changeIndirections: () => ({ body: { changes: [{ indirection: { name: 'Logo' }, resource: { name: 'logo-black.png' } }] } }),
    indirectionResources: () => ({ query: { name: 'Logo' } }),
    indirections: () => ({}),
    getNote: () => ({ query: { name: 'Encore' } }),
    setNote: () => ({ body: { note: { name: 'Encore' }, text: 'Yes' } }),
    listNotes: () => ({ query: { start: 0, count: 3 } }),
    record: () => ({ body: { engage: true, name: 'Close', slate: '3C', take: 1 } }),
    recorders: () => ({}),
    looks: () => ({}),
    setCdl: () => ({ body: { cdl: { name: 'Neutral', saturation: 0.9 } } }),
    cdls: () => ({}),
    listMedia: () => ({ query: { directory: 'images' } }),
    provision: () => ({ body: { transfers: [{ mediaPath: 'images/logo-white.png', uid: 'copy-1', localPath: ['backup/logo.png'] }] } }),
    removeMedia: () => ({ body: { path: 'audio/theme.wav' } }),
    detectSystems: () => ({}),
    osInfo: () => ({}),
    serviceVfcs: () => ({}),
    smcStatus: () => ({}),
    smcSet: () => ({ body: { Note: 'hello' } }),
    smcClearAll: () => ({}),
    smcEnableDowngrade: () => ({}),
    vfcsList: () => ({}),
    vfcsReplace: () => ({ body: [{ slot: 1, type: 'DP-4', status: 'ok' }] }),
    localMachineGet: () => ({}),
    localMachineSet: () => ({ body: { hostname: 'director', serial: 'SL-2', type: 'director' } }),
    sessionRoleGet: () => ({}),
    sessionRoleSet: () => ({ body: { role: 'director' } }),
    networkAdaptersList: () => ({}),
    networkAdaptersReplace: () => ({ body: sim.state.hardware.adapters.list() }),
    networkAdapterGet: () => ({ params: { mac: firstMac() } }),
    networkAdapterUpdate: () => ({ params: { mac: firstMac() }, body: sim.state.hardware.adapters.list()[0] }),
    powerCycle: () => ({}),
    powerOff: () => ({}),
    powerOn: () => ({}),
    powerStatus: () => ({}),
    chassisStats: () => ({}),
    whoami: () => ({}),
    oledNotify: () => ({ body: { title: 'Hello', message: 'World', priority: 1 } }),
    oledDisplayTime: () => ({ body: { time: 12 } }),
    ledStripGet: () => ({}),
    ledStripSet: () => ({ body: { ledMode: 'rainbow', ledR: 0, ledG: 0, ledB: 0 } }),
    renderStreamLayers: () => ({}),
    startLayers: () => ({ body: { layers: [{ name: 'Unreal Stage' }] } }),
    stopLayers: () => ({ body: { layers: [{ name: 'Unreal Stage' }] } }),
    restartLayers: () => ({ body: { layers: [{ name: 'Unreal Stage' }] } }),
    syncLayers: () => ({ body: { layers: [{ name: 'Unreal Stage' }] } }),
    renderStreamFailover: () => ({ body: { machine: { name: 'Actor 2' } } }),
    renderStreamFailoverPool: () => ({ body: { layer: { name: 'Unreal Stage' } } }),
    sockpuppetLive: () => ({ body: { patches: [{ address: 'layer/unreal', changes: [{ field: 'brightness', floatValue: { value: 0.5, duration: 1, easingFunction: 'linear' } }], uid: '1' }] } }),
    cameraDiscovery: () => ({ body: { enabled: true } }),
    rigCheckAcceptResult: () => ({ body: {} }),
    rigCheckDeleteOldResults: () => ({ body: {} }),
    rigCheckExecutePlan: () => ({ body: {} }),
    rigCheckRevertResult: () => ({ body: {} }),
    pythonExecute: () => ({ body: { moduleName: 'show', script: 'print(1)' } }),
    pythonRegisterModule: () => ({ body: { moduleName: 'show', contents: 'x = 1' } }),
  };

  function stageObservationUid(index: number): string {
    const stage = sim.state.mixedReality.spatialCalibrations().find((calibration) => calibration.name === 'Stage cal');
    return stage?.observations[index]?.uid ?? '';
  }

  function firstMac(): string {
    return sim.state.hardware.adapters.list()[0]?.mac ?? '';
  }

  /** The typed method an entry names, as `ms.<group>.<operation>`; hardware groups are `hardware.<name>`. */
  function typedMethod(endpoint: EndpointSpec): unknown {
    const group = endpoint.group.split('.').reduce<unknown>((owner, name) => (owner as Record<string, unknown> | undefined)?.[name], ms);
    return (group as Record<string, unknown> | undefined)?.[endpoint.operation];
  }

  it('names a typed method for every entry, ms.<group>.<operation>()', () => {
    const missing = endpointList.filter((endpoint) => typeof typedMethod(endpoint) !== 'function');
    expect(missing.map((endpoint) => `${endpoint.id}: ms.${endpoint.group}.${endpoint.operation}()`)).toEqual([]);
  });

  it('answers an unknown path with NotFoundError "No such endpoint"', async () => {
    const error = await refusal(ms.call({ ...endpoints.health, path: '/api/session/status/nothing' }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toContain('No such endpoint');
  });

  it('answers every endpoint of the catalogue, in catalogue order, with a success', async () => {
    const answered: string[] = [];
    await control(sim.mediaServer.url, { action: 'projectOption', name: 'enableTransportSpeedControl', on: true });
    for (const endpoint of endpointList.filter(offers)) {
      // Clearing the SMC database logs out, so log in before each hardware call.
      if (endpoint.family === 'hardware') await login();
      const result = await ms.call(endpoint, requests[endpoint.id](), { confirm: true }).catch((error: unknown) => {
        throw new Error(`${endpoint.method} ${endpoint.path} (${endpoint.id}) failed: ${String(error)}`);
      });
      expect(result, endpoint.id).toBeDefined();
      answered.push(endpoint.id);
    }
    expect(answered).toEqual(endpointList.filter(offers).map((endpoint) => endpoint.id));
    expect(answered.length).toBeGreaterThan(endpointList.filter((endpoint) => !endpoint.beyondSpec).length - 2);
  });
});
