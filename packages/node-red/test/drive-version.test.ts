import { readFileSync } from 'node:fs';
import type { Version } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { savedNode } from './support/editor-defaults.js';
import { collect, control, eventually, helper, nextMessage, nodeModules, startSim, statuses, type Msg } from './support/harness.js';

const nodes = nodeModules('stagelink-drive', 'stagelink-drive-version');

describe('stagelink-drive-version', () => {
  let sim: Simulator;

  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });
  afterEach(async () => {
    await helper.unload();
  });

  const flow = (node: Record<string, unknown>, drive: Record<string, unknown> = {}) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'drive', type: 'stagelink-drive', baseUrl: sim.drive.url, ...drive },
    {
      id: 'n1',
      z: 'tab',
      type: 'stagelink-drive-version',
      drive: 'drive',
      driveId: sim.drive.demoDrive.driveId,
      driveIdType: 'str',
      contentId: sim.drive.demoDrive.contentId,
      contentIdType: 'str',
      wires: [['out']],
      ...node,
    },
    { id: 'out', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];
  const credentials = () => ({ drive: { token: sim.drive.token } });

  const listAll = async (): Promise<Version[]> => {
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'list', listMode: 'all', perPage: 100 });
    return (await out).payload as Version[];
  };

  it('lists every page as one array and shows its progress', async () => {
    await helper.load(nodes, flow({ operation: 'list', listMode: 'all', perPage: '10', perPageType: 'num' }), credentials());
    const seen = statuses('n1');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 'go' });
    const versions = (await out).payload as Version[];
    expect(versions).toHaveLength(40);
    expect(new Set(versions.map((v) => v.id)).size).toBe(40);
    expect(versions.filter((v) => v.is_active)).toHaveLength(1);
    // Progress first; the throttle may fold the later pages into the final line, never lose the final line.
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green', text: '40 versions' }));
    expect(seen[0]?.text).toBe('page 1/4');
  });

  it('sends one msg per page when asked', async () => {
    await helper.load(nodes, flow({ operation: 'list', listMode: 'pages', perPage: '15', perPageType: 'num' }), credentials());
    const pages = collect('out');
    helper.getNode('n1')?.receive({ _msgid: 'list-1' });
    await eventually(() => expect(pages).toHaveLength(3));
    expect(pages.map((msg) => msg.page)).toEqual([
      { current: 1, last: 3, total: 40 },
      { current: 2, last: 3, total: 40 },
      { current: 3, last: 3, total: 40 },
    ]);
    expect(pages.map((msg) => (msg.payload as Version[]).length)).toEqual([15, 15, 10]);
  });

  it('offers "from msg" for the output mode, as a new node has it, then lists as msg.listMode says (all when it says nothing) and refuses a mode it does not know', async () => {
    expect(choicesOf('stagelink-drive-version', 'listMode')).toEqual(['', 'all', 'pages']);
    expect(savedNode('stagelink-drive-version').listMode).toBe('');
    await helper.load(nodes, flow({ operation: 'list', listMode: '', perPage: '15', perPageType: 'num' }), credentials());
    const sent = collect('out');
    helper.getNode('n1')?.receive({ listMode: 'pages' });
    await eventually(() => expect(sent).toHaveLength(3));
    expect(sent.map((msg) => (msg.payload as Version[]).length)).toEqual([15, 15, 10]);
    helper.getNode('n1')?.receive({});
    await eventually(() => expect(sent).toHaveLength(4));
    expect(sent[3]?.payload).toHaveLength(40);

    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ listMode: 'chunks' });
    expect((await caught).error?.message).toMatch(/listMode must be "all" or "pages" \(got "chunks"\)/);
    expect(sent).toHaveLength(4);
  });

  it('gets, relabels, activates and deletes a version, with what the node leaves blank from the msg', async () => {
    await helper.load(nodes, flow({ operation: '', contentId: '' }), credentials());
    const versions = await (async () => {
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({ operation: 'list', contentId: sim.drive.demoDrive.contentId, perPage: 100 });
      return (await out).payload as Version[];
    })();
    const oldest = versions.reduce((a, b) => (a.version_number < b.version_number ? a : b));
    const contentId = sim.drive.demoDrive.contentId;

    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'get', contentId, versionId: oldest.id });
    expect((await out).payload).toMatchObject({ id: oldest.id, version_number: oldest.version_number });

    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'update', contentId, versionId: oldest.id, label: 'Opening night', setActive: true });
    expect((await out).payload).toMatchObject({ id: oldest.id, label: 'Opening night', is_active: true });

    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'list', contentId, perPage: 100 });
    const after = (await out).payload as Version[];
    expect(after.filter((v) => v.is_active).map((v) => v.id)).toEqual([oldest.id]);

    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'delete', contentId, versionId: oldest.id });
    expect((await out).payload).toEqual({ deleted: oldest.id });

    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ operation: 'get', contentId, versionId: oldest.id });
    expect((await caught).error?.message).toMatch(/Version .* was not found/);
  });

  it('sends drive failures to Catch without the token anywhere', async () => {
    await helper.load(nodes, flow({ operation: 'list' }), { drive: { token: sim.drive.otherTokens.revoked } });
    const seen = statuses('n1');
    let caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    const refused = await caught;
    expect(refused.error?.message).toMatch(/refused the token/);
    expect(seen.at(-1)).toMatchObject({ fill: 'red' });

    await control(sim, { action: 'failNext', status: 503, count: 5 }, 'drive');
    caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    const failed: Msg = await caught;
    const everything = JSON.stringify([refused, failed, seen]);
    expect(everything).not.toContain(sim.drive.otherTokens.revoked);
    await control(sim, { action: 'reset' }, 'drive');
  });

  it('says what to do when the drive has no token', async () => {
    await helper.load(nodes, flow({ operation: 'list' }), {});
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/no API token/);
  });

  it('shows a drive without a token at deploy, before any msg, and says once in the log what to do', async () => {
    await helper.load(nodes, flow({ operation: 'list' }), {});
    const node = helper.getNode('n1') as unknown as {
      status: { getCalls(): { thisValue: unknown; args: [{ fill?: string; text?: string }] }[] };
      error: { getCalls(): { thisValue: unknown; args: unknown[] }[] };
    };
    const own = <T extends { thisValue: unknown }>(calls: T[]): T[] => calls.filter((call) => call.thisValue === node);
    expect(own(node.status.getCalls()).at(-1)?.args[0]).toEqual({ fill: 'red', shape: 'dot', text: 'bad drive setting' });
    expect(own(node.error.getCalls()).map((call) => String(call.args[0]))).toEqual([expect.stringMatching(/The stagelink-drive setting cannot work: .*no API token/)]);
  });

  // Deployed as the editor deploys: the token inside the drive node's `credentials`, then, on a redeploy, the
  // editor's placeholder for a password it never got back. The runtime's flows are what GET /flows exports and
  // what it hands storage for flows.json.
  it('keeps a deployed token out of the flows Node-RED exports and saves, and still lists with it', async () => {
    const deployed = flow({ operation: 'list' });
    await helper.load(nodes, deployed);
    const withToken = deployed.map((node) => (node.id === 'drive' ? { ...node, credentials: { token: sim.drive.token } } : node));
    await helper.setFlows(withToken, 'full');
    expect(JSON.stringify(helper._redNodes.getFlows()?.flows)).not.toContain(sim.drive.token);
    expect(await listAll()).toHaveLength(40);

    const unchanged = deployed.map((node) => (node.id === 'drive' ? { ...node, name: 'renamed', credentials: { token: '__PWRD__' } } : node));
    await helper.setFlows(unchanged, 'full');
    expect(JSON.stringify(helper._redNodes.getFlows()?.flows)).not.toContain(sim.drive.token);
    expect(await listAll()).toHaveLength(40);
  });
});

/** The values a select of the built edit dialog offers, in order ('' is "from msg"). */
function choicesOf(type: string, field: string): string[] {
  const html = readFileSync(new URL(`../dist/nodes/${type}.html`, import.meta.url), 'utf8');
  const select = new RegExp(`<select id="node-input-${field}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
  return [...select.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1] ?? '');
}
