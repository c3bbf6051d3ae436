import { afterEach, describe, expect, it } from 'vitest';
import { DirectorFollower, type DirectorChange } from '../src/discovery/director-follower.js';
import { silentLogger, type LogEvent, type Logger } from '../src/http/logger.js';
import { json, ok, silence, startScriptedServer } from './support/scripted-server.js';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe('DirectorFollower', () => {
  it('asks a director that does not answer once per check, not once as current and again as known', async () => {
    const poweredOff = await startScriptedServer([], silence);
    open.push(poweredOff);
    const follower = new DirectorFollower(poweredOff.url, () => undefined, silentLogger, { intervalMs: 60_000 });
    open.push({ close: () => follower.stop() });
    await follower.ready();
    expect(follower.director).toBeUndefined();
    expect(poweredOff.received).toHaveLength(1);
  });
});

const member = (hostname: string) => ({ uid: hostname, name: hostname.toLowerCase(), hostname, type: 'director', guiMode: 'normal', guiVisible: true });

/** A machine whose `status/session` names `names.director` (changeable by the test); every other path answers ok. */
async function machineNaming(director: string) {
  const names = { director };
  const server = await startScriptedServer([], (req, res) => {
    const session = { isRunningSolo: false, isDirectorDedicated: false, director: member(names.director), actors: [], understudies: [] };
    json(200, req.url?.startsWith('/api/session/status/session') ? { status: ok, result: session } : { status: ok, result: [] })(req, res, '');
  });
  open.push(server);
  return { url: server.url, host: new URL(server.url).host, names };
}

/** A follower seeded at `seed`, with every director it reports kept in `changes`. */
function followerFrom(seed: string, hosts: Record<string, string>, logger: Logger = silentLogger) {
  const changes: { hostname: string; url: string; moved: boolean }[] = [];
  const follower = new DirectorFollower(seed, ({ hostname, url }: DirectorChange, moved) => changes.push({ hostname, url, moved }), logger, {
    intervalMs: 60_000,
    hosts,
  });
  open.push({ close: () => follower.stop() });
  return { follower, changes };
}

describe('which machine the follower takes for the director', () => {
  it('never takes a machine that names another, and does not move between two machines naming each other', async () => {
    const a = await machineNaming('MACHINEA');
    const b = await machineNaming('MACHINEA');
    const { follower, changes } = followerFrom(a.url, { machinea: a.host, machineb: b.host });
    await follower.ready();
    expect(changes).toEqual([{ hostname: 'MACHINEA', url: a.url, moved: false }]);

    // A takeover half done: each machine says the other directs.
    a.names.director = 'MACHINEB';
    b.names.director = 'MACHINEA';
    for (let check = 0; check < 4; check++) expect(await follower.check()).toBe(false);
    expect(follower.current).toBe(a.url);
    expect(changes).toHaveLength(1);
  });

  it('moves once to a machine that names itself when the director names it, and warns of the move with its facts', async () => {
    const a = await machineNaming('MACHINEA');
    const b = await machineNaming('MACHINEB');
    const warnings: [string, LogEvent | undefined][] = [];
    const { follower, changes } = followerFrom(a.url, { MachineA: a.host, MACHINEB: b.host }, { warn: (message, event) => warnings.push([message, event]) });
    await follower.ready();
    a.names.director = 'machineb';
    expect(await follower.check()).toBe(true);
    expect(await follower.check()).toBe(false);
    expect(follower.current).toBe(b.url);
    expect(changes.map(({ hostname, moved }) => ({ hostname, moved }))).toEqual([
      { hostname: 'MACHINEA', moved: false },
      { hostname: 'MACHINEB', moved: true },
    ]);
    // A front end with words of its own says it from the facts; the message is core's English for the same.
    expect(warnings).toEqual([
      [`The director of the session is now MACHINEB (${b.url}), after MACHINEA; following it.`, { code: 'DIRECTOR_MOVED', facts: { hostname: 'MACHINEB', url: b.url, previous: 'MACHINEA' } }],
    ]);
  });

  it('takes no machine but the address given for a director whose name does not resolve', async () => {
    const seed = await machineNaming('MACHINEB');
    const b = await machineNaming('DIRECTOR01');
    const { follower, changes } = followerFrom(seed.url, { machineb: b.host });
    await follower.ready();
    expect(follower.director).toBeUndefined();
    expect(follower.current).toBe(seed.url);
    expect(changes).toEqual([]);
  });
});

describe('a check that fails for a reason of its own', () => {
  it('resolves false and says so once in the log, never rejecting from its timer', async () => {
    const server = await startScriptedServer([], (req, res) => {
      const session = { isRunningSolo: false, isDirectorDedicated: false, director: member('MACHINEA'), actors: [member('ACTOR01')], understudies: [] };
      json(200, { status: ok, result: session })(req, res, '');
    });
    open.push(server);
    const warnings: (LogEvent | undefined)[] = [];
    // A hosts map no client would accept (MediaServer checks it when given): the check trips on it while learning the actor.
    const { follower } = followerFrom(server.url, { MACHINEA: new URL(server.url).host, ACTOR01: '10.0.0.256' }, { warn: (_message, event) => warnings.push(event) });
    await follower.ready();
    expect(await follower.check()).toBe(false);
    expect(warnings.map((event) => event?.code)).toEqual(['DIRECTOR_CHECK_FAILED']);
    expect(warnings[0]?.facts.reason).toMatch(/ACTOR01 in hosts \("10\.0\.0\.256"\) is not an address/);
  });
});

describe('a session between directors', () => {
  it('does not take a machine whose session names no director for a solo director, and stays with the director it knows', async () => {
    let betweenDirectors = false;
    const director = await startScriptedServer([], (req, res) => {
      if (betweenDirectors) return void req.socket.destroy();
      const session = { isRunningSolo: false, isDirectorDedicated: false, director: member('MACHINEA'), actors: [member('ACTOR01')], understudies: [] };
      json(200, { status: ok, result: session })(req, res, '');
    });
    open.push(director);
    const actor = await startScriptedServer([], (req, res) => {
      const session = { isRunningSolo: false, isDirectorDedicated: false, ...(betweenDirectors ? {} : { director: member('MACHINEA') }), actors: [member('ACTOR01')], understudies: [] };
      json(200, { status: ok, result: session })(req, res, '');
    });
    open.push(actor);
    const { follower, changes } = followerFrom(actor.url, { MACHINEA: new URL(director.url).host, ACTOR01: new URL(actor.url).host });
    await follower.ready();
    expect(follower.current).toBe(director.url);

    // Mid-takeover: the old director is gone and the actor's session names nobody yet.
    betweenDirectors = true;
    expect(await follower.check()).toBe(false);
    expect(follower.current).toBe(director.url);
    expect(changes.map(({ hostname }) => hostname)).toEqual(['MACHINEA']);
  });
});

describe('a director that changes at the same address', () => {
  it('tells of another machine directing at the address it follows, without moving', async () => {
    const a = await machineNaming('MACHINEA');
    const { follower, changes } = followerFrom(a.url, { MACHINEA: a.host, MACHINEC: a.host });
    await follower.ready();
    // Between shows the machine at that address was swapped: it answers as director under its own name.
    a.names.director = 'MACHINEC';
    expect(await follower.check()).toBe(false);
    expect(follower.director).toMatchObject({ hostname: 'MACHINEC', previous: 'MACHINEA' });
    expect(await follower.check()).toBe(false);
    expect(changes).toEqual([
      { hostname: 'MACHINEA', url: a.url, moved: false },
      { hostname: 'MACHINEC', url: a.url, moved: false },
    ]);
  });
});
