import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIDE_SCREENS_UID, startSimulator, takeLoopbackDnssdTurn, type Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { allNodes, eventually, helper, hostnames, liveStats, type Msg, nextMessage, statuses, useSimulator } from './support/harness.js';
import { EditorDialog } from './support/editor-dialog.js';
import { serveOverVenueHttps } from './support/venue-https.js';

interface Choice {
  uid: string;
  name: string;
  detail?: string;
  hostname?: string;
}

/** Node-RED's own tls-config node, as the palette has it. */
function tlsConfigNode(): unknown {
  return createRequire(createRequire(import.meta.url).resolve('node-red/package.json'))('@node-red/nodes/core/network/05-tls.js');
}

/** An https server with a self-signed P-256 certificate (its CA file beside it) that answers every request as a solo machine. */
async function startSelfSignedServer(): Promise<{ url: string; caFile: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'stagelink-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: { code: 0, message: '', details: [] }, result: { isRunningSolo: true, director: null, actors: [], understudies: [] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caFile: join(dir, 'cert.pem'),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('stagelink-server', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  const serverOnly = () => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true },
  ];

  it('takes its host from an environment variable written as ${NAME}', async () => {
    process.env['STAGELINK_TEST_HOST'] = sim.mediaServer.url;
    try {
      await helper.load(allNodes(), [{ ...serverOnly()[0] }, { ...serverOnly()[1], host: '${STAGELINK_TEST_HOST}' }]);
      const answer = await helper.request().get('/stagelink/tracks?server=server');
      expect(answer.status).toBe(200);
      expect((answer.body as Choice[]).map((t) => t.name)).toContain('Intro');
    } finally {
      delete process.env['STAGELINK_TEST_HOST'];
    }
  });

  it('reaches an https server through a tls-config node that trusts its self-signed certificate', async () => {
    const secure = await startSelfSignedServer();
    try {
      const flow = (tls: string) => [
        { id: 'tab', type: 'tab', label: 'test' },
        { id: 'trust', type: 'tls-config', cert: '', key: '', ca: secure.caFile, verifyservercert: true },
        { id: 'server', type: 'stagelink-server', host: secure.url, followDirector: false, tls },
        { id: 'n1', z: 'tab', type: 'stagelink-status', server: 'server', operation: 'session', wires: [['out']] },
        { id: 'out', z: 'tab', type: 'helper' },
        { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
        { id: 'caught', z: 'tab', type: 'helper' },
      ];
      await helper.load([...allNodes(), tlsConfigNode()], flow('trust'));
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({});
      expect((await out).payload).toMatchObject({ isRunningSolo: true });

      await helper.unload();
      await helper.load([...allNodes(), tlsConfigNode()], flow(''));
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive({});
      expect((await caught).error?.message).toMatch(/certificate is not trusted here/);
    } finally {
      await secure.close();
    }
  });

  describe('admin endpoints for the editor dropdowns', () => {
    it('lists transports (uids as strings), tracks, sections and notes, and machines from the live server', async () => {
      await helper.load(allNodes(), serverOnly());
      const transports = await helper.request().get('/stagelink/transports?server=server');
      expect(transports.status).toBe(200);
      const transportList = transports.body as Choice[];
      expect(transportList.map((t) => t.name)).toEqual(['main', 'side screens', 'lobby', 'stage']);
      expect(transportList.find((t) => t.name === 'side screens')?.uid).toBe(SIDE_SCREENS_UID);

      const tracks = await helper.request().get('/stagelink/tracks?server=server');
      expect((tracks.body as Choice[]).map((t) => t.name)).toContain('Intro');

      const annotations = await helper.request().get('/stagelink/annotations?server=server&track=Intro&trackBy=name');
      expect(annotations.body).toEqual({
        sections: [{ index: 0, time: 0 }, { index: 1, time: 60 }, { index: 2, time: 120 }],
        notes: ['Lights cue 12'],
        tags: [
          { type: 'TC', value: '10:05:00:00' },
          { type: 'CUE', value: 'Q2' },
          { type: 'MIDI', value: '36' },
        ],
      });

      const machines = await helper.request().get('/stagelink/machines?server=server');
      expect((machines.body as Choice[]).map((m) => [m.hostname, m.detail])).toEqual([
        [hostnames(sim).director, 'director'],
        [hostnames(sim).actor1, 'actor'],
        [hostnames(sim).actor2, 'actor'],
        [hostnames(sim).understudy, 'understudy'],
      ]);
    });

    it('asks the host typed in the editor when the server is not deployed yet', async () => {
      await helper.load(allNodes(), serverOnly());
      const answer = await helper.request().get(`/stagelink/tracks?server=new-one&host=${encodeURIComponent(sim.mediaServer.url)}`);
      expect(answer.status).toBe(200);
      expect((answer.body as Choice[]).length).toBeGreaterThan(3);
    });

    it('reads a host typed as ${NAME} from the environment, as the deployed server reads it, for Test connection and the lists', async () => {
      process.env['STAGELINK_EDITOR_HOST'] = sim.mediaServer.url;
      try {
        await helper.load(allNodes(), serverOnly());
        const typed = encodeURIComponent('${STAGELINK_EDITOR_HOST}');
        // A server being added (not deployed yet), as the dialog's Test connection asks.
        const machines = await helper.request().get(`/stagelink/machines?server=new-one&host=${typed}&tls=`);
        expect(machines.status, JSON.stringify(machines.body)).toBe(200);
        expect((machines.body as Choice[]).map((m) => m.hostname)).toContain(hostnames(sim).director);
        const tracks = await helper.request().get(`/stagelink/tracks?server=new-one&host=${typed}`);
        expect((tracks.body as Choice[]).map((t) => t.name)).toContain('Intro');
      } finally {
        delete process.env['STAGELINK_EDITOR_HOST'];
      }
    });

    it('reads no environment variable for a caller who may only read servers, and never answers its value', async () => {
      const secret = 'http://127.0.0.1:9/secret-in-the-environment';
      process.env['STAGELINK_EDITOR_SECRET'] = secret;
      process.env['STAGELINK_EDITOR_HOST'] = sim.mediaServer.url;
      try {
        // Node-RED's adminAuth with a reader: only the `.read` permissions pass.
        const [server, ...others] = allNodes() as ((red: { auth: unknown }) => unknown)[];
        const asReader = (red: { auth: unknown }): unknown => {
          red.auth = { needsPermission: (permission: string) => (_req: unknown, res: { status(code: number): { end(): void } }, next: () => void) => (permission.endsWith('.read') ? next() : res.status(401).end()) };
          return server?.(red);
        };
        await helper.load([asReader, ...others], [...serverOnly(), { id: 'by-env', type: 'stagelink-server', host: '${STAGELINK_EDITOR_HOST}', followDirector: false }]);
        for (const path of ['machines?server=new-one&host=', 'discover?host=']) {
          const answer = await helper.request().get(`/stagelink/${path}${encodeURIComponent('${STAGELINK_EDITOR_SECRET}')}`);
          expect(answer.status, path).toBe(403);
          expect(JSON.stringify(answer.body), path).not.toContain('secret-in-the-environment');
          expect((answer.body as { error: string }).error).toMatch(/needs the stagelink-server\.write permission/);
        }
        // The deployed server read its own host at deploy: a reader still gets its lists.
        const deployed = await helper.request().get(`/stagelink/tracks?server=by-env&host=${encodeURIComponent('${STAGELINK_EDITOR_HOST}')}`);
        expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
        expect((deployed.body as Choice[]).map((t) => t.name)).toContain('Intro');
      } finally {
        delete process.env['STAGELINK_EDITOR_SECRET'];
        delete process.env['STAGELINK_EDITOR_HOST'];
      }
    });

    it('says which ${NAME} is not set, and names an unreachable host as typed, for a caller who may change servers', async () => {
      process.env['STAGELINK_EDITOR_NOWHERE'] = 'http://127.0.0.1:9';
      try {
        await helper.load(allNodes(), serverOnly());
        const unset = await helper.request().get(`/stagelink/machines?server=new-one&host=${encodeURIComponent('${STAGELINK_EDITOR_UNSET}')}`);
        expect(unset.status).toBe(400);
        expect((unset.body as { error: string }).error).toBe("${STAGELINK_EDITOR_UNSET} is not set in the runtime's environment.");
        const unreachable = await helper.request().get(`/stagelink/machines?server=new-one&host=${encodeURIComponent('${STAGELINK_EDITOR_NOWHERE}')}`);
        expect(unreachable.status).toBe(502);
        const error = (unreachable.body as { error: string }).error;
        expect(error).toContain('${STAGELINK_EDITOR_NOWHERE}');
        // Nor in the words the editor says it with in its own language.
        expect(JSON.stringify(unreachable.body)).not.toContain('127.0.0.1');
        expect(unreachable.body).toMatchObject({ words: { values: { lead: expect.stringContaining('${STAGELINK_EDITOR_NOWHERE}') as string } } });
      } finally {
        delete process.env['STAGELINK_EDITOR_NOWHERE'];
      }
    });

    it("tries an https host with the dialog's tls-config node, so a venue CA is trusted before the server is deployed", async () => {
      const secure = await startSelfSignedServer();
      try {
        await helper.load([...allNodes(), tlsConfigNode()], [
          ...serverOnly(),
          { id: 'trust', type: 'tls-config', cert: '', key: '', ca: secure.caFile, verifyservercert: true },
        ]);
        const host = encodeURIComponent(secure.url);
        const trusted = await helper.request().get(`/stagelink/machines?server=new-one&host=${host}&tls=trust`);
        expect(trusted.status, JSON.stringify(trusted.body)).toBe(200);
        expect(trusted.body).toEqual([]);
        const untrusted = await helper.request().get(`/stagelink/machines?server=new-one&host=${host}&tls=`);
        expect(untrusted.status).toBe(502);
        expect((untrusted.body as { error: string }).error).toMatch(/certificate is not trusted here/);
      } finally {
        await secure.close();
      }
    });

    it('reaches the simulator behind a venue CA with a deployed tls-config node: Test connection, a pick list and Discover', async () => {
      const venue = await serveOverVenueHttps(sim.mediaServer.url);
      try {
        await helper.load([...allNodes(), tlsConfigNode()], [
          ...serverOnly(),
          { id: 'venue-ca', type: 'tls-config', cert: '', key: '', ca: venue.caFile, verifyservercert: true },
        ]);
        const host = encodeURIComponent(venue.url);
        const machines = await helper.request().get(`/stagelink/machines?server=new-one&host=${host}&tls=venue-ca`);
        expect(machines.status, JSON.stringify(machines.body)).toBe(200);
        expect((machines.body as Choice[]).map((m) => m.hostname)).toContain(hostnames(sim).director);
        const transports = await helper.request().get(`/stagelink/transports?server=new-one&host=${host}&tls=venue-ca`);
        expect(transports.status, JSON.stringify(transports.body)).toBe(200);
        expect((transports.body as Choice[]).map((t) => t.name)).toContain('main');
        // Discovery asks the typed machine who directs its session: over https, with the same CA.
        const found = await helper.request().get(`/stagelink/discover?server=new-one&host=${host}&tls=venue-ca`);
        expect(found.status, JSON.stringify(found.body)).toBe(200);
        expect(found.body).toMatchObject({ hostname: hostnames(sim).director, via: 'query', url: expect.stringMatching(/^https:\/\//) as string });
      } finally {
        await venue.close();
      }
    }, 20_000);

    it('asks for the tls-config node to be deployed first rather than try an https host without its CA', async () => {
      const venue = await serveOverVenueHttps(sim.mediaServer.url);
      try {
        // The server is deployed without TLS; the dialog has just been given a tls-config node the runtime lacks.
        await helper.load([...allNodes(), tlsConfigNode()], serverOnly());
        const host = encodeURIComponent(venue.url);
        for (const path of [`machines?server=new-one&host=${host}`, `tracks?server=server&host=${host}`, `discover?server=new-one&host=${host}`]) {
          const answer = await helper.request().get(`/stagelink/${path}&tls=added-in-dialog`);
          expect(answer.status, path).toBe(400);
          expect(answer.body, path).toEqual({
            error: "Deploy the TLS configuration first: until then the runtime cannot trust the server's certificate as the deployed server will.",
            words: { key: 'admin.deployTls', values: {} },
          });
        }
        // A plain http host needs no certificate: it is asked as the deployed server will ask it.
        const plain = await helper.request().get(`/stagelink/tracks?server=new-one&host=${encodeURIComponent(sim.mediaServer.url)}&tls=added-in-dialog`);
        expect(plain.status, JSON.stringify(plain.body)).toBe(200);
      } finally {
        await venue.close();
      }
    }, 20_000);

    it("asks with the dialog's tls-config node from Test connection and Discover, and says in the editor's language to deploy a new one", async () => {
      const venue = await serveOverVenueHttps(sim.mediaServer.url);
      const german = JSON.parse(readFileSync(new URL('../dist/nodes/locales/de/stagelink-server.json', import.meta.url), 'utf8')) as {
        'stagelink-server': { admin: { deployTls: string } };
      };
      try {
        await helper.load([...allNodes(), tlsConfigNode()], [
          { id: 'tab', type: 'tab', label: 'test' },
          { id: 'venue-ca', type: 'tls-config', cert: '', key: '', ca: venue.caFile, verifyservercert: true },
        ]);
        const dialog = new EditorDialog('stagelink-server', { id: 'new-one' }, 'de');
        const shown = (selector: string) => dialog.element(selector).text() as string;
        dialog.element('#node-config-input-host').val(venue.url);
        dialog.element('#node-config-input-tls').val('venue-ca');
        dialog.click('#node-config-stagelink-server-test');
        await eventually(() => expect(shown('#node-config-stagelink-server-result')).toContain(`erreicht: ${hostnames(sim).director}`));
        dialog.click('#node-config-stagelink-server-discover');
        await eventually(() => expect(shown('#node-config-stagelink-server-discovered')).toContain(`Director ${hostnames(sim).director}`));

        dialog.element('#node-config-input-tls').val('added-in-dialog');
        for (const [button, result] of [['test', 'result'], ['discover', 'discovered']]) {
          dialog.click(`#node-config-stagelink-server-${button}`);
          await eventually(() => expect(shown(`#node-config-stagelink-server-${result}`), button).toBe(german['stagelink-server'].admin.deployTls));
        }
      } finally {
        await venue.close();
      }
    }, 30_000);

    it('answers 502 with the reason when the server cannot be reached, and 400 without a server', async () => {
      await helper.load(allNodes(), serverOnly());
      const unreachable = await helper.request().get('/stagelink/transports?server=x&host=http%3A%2F%2F127.0.0.1%3A9');
      expect(unreachable.status).toBe(502);
      expect((unreachable.body as { error: string }).error).toMatch(/Could not reach 127\.0\.0\.1:9/);
      // With its catalog words and facts, for an editor in another language than the runtime's.
      expect(unreachable.body).toMatchObject({
        words: { key: 'errorText.STAGELINK_ERR_CONNECTION_UNSENT', values: { lead: expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:9\//) as string, because: ' (ECONNREFUSED)' } },
      });
      const nothing = await helper.request().get('/stagelink/transports');
      expect(nothing.status).toBe(400);
      expect(nothing.body).toEqual({ error: 'Choose a stagelink-server (or type its host) first.', words: { key: 'admin.chooseServer', values: {} } });
    });

    it('discovers the director of the session a typed host belongs to, and says whether its name resolves here', async () => {
      await helper.load(allNodes(), serverOnly());
      const answer = await helper.request().get(`/stagelink/discover?host=${encodeURIComponent(sim.mediaServer.url)}`);
      expect(answer.status).toBe(200);
      const found = answer.body as { hostname: string; url: string; via: string; resolvable: boolean };
      expect(found).toMatchObject({ hostname: hostnames(sim).director, via: 'query' });
      // The documents' machines go by names that resolve; a shipping director's DIRECTOR01 does not.
      expect(found.resolvable).toBe(process.env['STAGELINK_SIM_DIALECT'] !== 'r34');
      // A host that does not answer leaves DNS-SD, where a simulator of another suite running beside this one may
      // announce itself on loopback: then that one is found, never one said to answer at the typed host.
      const nowhere = await helper.request().get('/stagelink/discover?host=http%3A%2F%2F127.0.0.1%3A9');
      if (nowhere.status === 200) expect(nowhere.body).toMatchObject({ via: 'dnssd' });
      else {
        expect(nowhere.status).toBe(502);
        expect((nowhere.body as { error: string }).error).toMatch(/No director found: http:\/\/127\.0\.0\.1:9 did not answer/);
      }
    }, 20_000);

    // DNS-SD stays on loopback, which needs IFF_MULTICAST on lo (.ci/run sets it).
    const loopbackMulticast = (Number(readFileSync('/sys/class/net/lo/flags', 'utf8')) & 0x1000) !== 0;
    it.skipIf(!loopbackMulticast)('lists the machines a shipping session announces, with role, version and API address, to pick one', async () => {
      // Other suites' simulators announce on loopback too: hold the turn while this one announces.
      const release = await takeLoopbackDnssdTurn();
      const announcing = await startSimulator({ scenario: 'session', dialect: 'r34', dnssd: true, port: 0, drivePort: 0 }).catch(async (error: unknown) => {
        await release();
        throw error;
      });
      try {
        await helper.load(allNodes(), serverOnly());
        const answer = await helper.request().get('/stagelink/discover-machines');
        expect(answer.status).toBe(200);
        // A simulator of another suite running beside this one may announce the same machine names: each must
        // be listed once, as a machine with an API address a picker can make the host.
        const listed = answer.body as { hostname: string; role?: string; version?: string; url?: string }[];
        const { major, minor } = announcing.state.project.version;
        expect(listed).toEqual(
          expect.arrayContaining(
            announcing.machines().map(
              ({ hostname, role }): unknown =>
                expect.objectContaining({ hostname, role, version: expect.stringMatching(`^${major}\\.${minor}\\.`) as unknown, url: expect.stringMatching(/^http:\/\/127\.0\.0\.\d+:\d+$/) as unknown }),
            ),
          ),
        );
        expect(new Set(listed.map((machine) => machine.hostname)).size).toBe(listed.length);
      } finally {
        await announcing.close();
        await release();
      }
    }, 20_000);

    it('answers 502 when the server refuses, e.g. an unknown track', async () => {
      await helper.load(allNodes(), serverOnly());
      const answer = await helper.request().get('/stagelink/annotations?server=server&track=Nope');
      expect(answer.status).toBe(502);
      expect((answer.body as { error: string }).error).toMatch(/Nope/);
    });
  });

  describe('one client and one live socket per server', () => {
    const liveFlow = (preset: string) => [
      ...serverOnly(),
      { id: 'watch-node', z: 'tab', type: 'stagelink-liveupdate-in', server: 'server', preset, interval: 100, average: 0, topic: '', wires: [['out']] },
      { id: 'cpu-node', z: 'tab', type: 'stagelink-liveupdate-in', server: 'server', preset: 'cpu', interval: 100, average: 0, topic: 'cpu', wires: [['out']] },
      { id: 'play-node', z: 'tab', type: 'stagelink-transport', server: 'server', command: 'play', transport: 'main', wires: [[]] },
      { id: 'out', z: 'tab', type: 'helper' },
    ];
    const topicArrives = async (topic: string): Promise<Msg> =>
      new Promise((resolve) => {
        const out = helper.getNode('out');
        const listener = (msg: Msg): void => {
          if (msg.topic !== topic || typeof msg.payload !== 'number') return;
          out?.off('input', listener);
          resolve(msg);
        };
        out?.on('input', listener);
      });

    it('keeps exactly one socket through a full deploy and a modified-nodes deploy, and leaks no subscription', async () => {
      await helper.load(allNodes(), liveFlow('localFps'));
      await Promise.all([topicArrives('localFps'), topicArrives('cpu')]);
      expect(liveStats(sim)).toMatchObject({ sockets: 1, subscriptions: 2 });
      const serverBefore = helper.getNode('server');

      // Modified nodes: only the watching node restarts (now on GPU memory); the config node and its socket
      // survive, and the old node's FPS subscription is released on the server, not left behind.
      const upgradesBefore = liveStats(sim).upgradeAttempts;
      await helper.setFlows(liveFlow('gpuMemory'), 'nodes');
      await topicArrives('gpuMemory');
      expect(helper.getNode('server')).toBe(serverBefore);
      await eventually(() => expect(liveStats(sim)).toMatchObject({ sockets: 1, subscriptions: 2 }));
      expect(liveStats(sim).upgradeAttempts).toBe(upgradesBefore);

      // Full: every node restarts, the config node too; the old socket closes and one new one opens.
      await helper.setFlows(liveFlow('processMemory'), 'full');
      // Every node is new, the helper node too: listen on the new one (values keep coming).
      await Promise.all([topicArrives('processMemory'), topicArrives('cpu')]);
      expect(helper.getNode('server')).not.toBe(serverBefore);
      expect(liveStats(sim).upgradeAttempts).toBe(upgradesBefore + 1);
      await eventually(() => expect(liveStats(sim)).toMatchObject({ sockets: 1, subscriptions: 2 }));

      // And nothing is left once the flows stop.
      await helper.unload();
      await eventually(() => expect(liveStats(sim)).toMatchObject({ sockets: 0, subscriptions: 0 }));
    });
  });

  /** A server config node with `extra` settings and a transport node cueing main; Catch wired to `caught`. */
  const cueFlow = (server: Record<string, unknown>, node: Record<string, unknown> = { type: 'stagelink-transport', command: 'play', transport: 'main' }) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true, ...server },
    { id: 'n1', z: 'tab', server: 'server', wires: [['out']], ...node },
    { id: 'out', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];
  const warningsOf = (id: string): string[] =>
    (helper.getNode(id) as unknown as { warn: { getCalls(): { args: unknown[] }[] } }).warn.getCalls().map((call) => String(call.args[0]));

  it('reports a hosts line that is not HOSTNAME=address on use, to Catch', async () => {
    await helper.load(allNodes(), cueFlow({ hosts: 'DIRECTOR01 10.0.0.5' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/"DIRECTOR01 10\.0\.0\.5" is not HOSTNAME=address/);
  });

  describe.runIf(process.env['STAGELINK_SIM_DIALECT'] === 'r34')('on a director named like a Windows machine, with its SMC apart (r34)', () => {
    const cue = async (): Promise<void> => {
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({});
      await out;
    };

    it('keeps cueing the address given while its name does not resolve, and says so once', async () => {
      await helper.load(allNodes(), cueFlow({}));
      await cue();
      await cue();
      expect(hostnames(sim).director).toBe('DIRECTOR01');
      expect(warningsOf('server').filter((line) => line.includes('cannot be reached by its name'))).toHaveLength(1);
    });

    it('follows the director to the address its hosts line gives', async () => {
      const { port } = new URL(sim.mediaServer.url);
      await helper.load(allNodes(), cueFlow({ host: `localhost:${port}`, hosts: `# the director\nDIRECTOR01=127.0.0.1:${port}` }));
      await cue();
      const director = await helper.request().get('/stagelink/director?server=server');
      expect(director.body).toMatchObject({ hostname: 'DIRECTOR01', url: `http://127.0.0.1:${port}`, followed: true });
      expect(warningsOf('server').filter((line) => line.includes('cannot be reached by its name'))).toEqual([]);
    });

    it('sends the hardware family to the SMC with its account, which never shows in the flows, a status or an error', async () => {
      const smc = sim.smc;
      if (!smc) throw new Error('An r34 simulator has an SMC.');
      const oled = { type: 'stagelink-oled-out', title: 'Stage', titleType: 'str', message: 'payload', messageType: 'msg' };
      const flow = cueFlow({ smcHost: smc.url }, oled);
      const wrong = 'not-the-password-4711';
      await helper.load(allNodes(), flow);
      await helper.setFlows(flow.map((node) => (node.id === 'server' ? { ...node, credentials: { smcUsername: smc.username, smcPassword: wrong } } : node)), 'full');
      const shown = statuses('n1');
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ payload: 'Doors open' });
      const refused = await caught;
      expect(refused.error?.message).toMatch(/login required/i);

      await helper.setFlows(flow.map((node) => (node.id === 'server' ? { ...node, credentials: { smcUsername: smc.username, smcPassword: smc.password } } : node)), 'full');
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({ payload: 'Doors open' });
      await out;
      expect(sim.state.hardware.oled.history().at(-1)).toMatchObject({ title: 'Stage', message: 'Doors open' });

      const everything = JSON.stringify([refused, shown, warningsOf('server'), helper._redNodes.getFlows()?.flows]);
      for (const secret of [wrong, smc.password]) expect(everything).not.toContain(secret);
    });
  });

  it('reports a malformed host on use, to Catch, without stopping the flow', async () => {
    await helper.load(allNodes(), [
      { id: 'tab', type: 'tab', label: 'test' },
      { id: 'server', type: 'stagelink-server', host: 'ftp://10.0.0.5', followDirector: false },
      { id: 'n1', z: 'tab', type: 'stagelink-transport', server: 'server', command: 'play', transport: 'main', wires: [[]] },
      { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', z: 'tab', type: 'helper' },
    ]);
    const server = helper.getNode('server') as unknown as { connection: { followDirector: boolean } };
    expect(server.connection.followDirector).toBe(false);
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/uses ftp: the media-server API speaks http/);
  });
});
