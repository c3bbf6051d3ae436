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
