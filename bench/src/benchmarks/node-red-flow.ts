/**
 * The Node-RED flow the Node-RED cue benchmark deploys. `POST /bench/run {contender, inFlight, count}` makes
 * the driver (a function node) keep `inFlight` cues in flight through one contender until `count` have
 * completed, timing each with the runtime's own clock, then answer `{latencies, failed, elapsedMs}`:
 *
 *   http in ─▶ driver ─┬▶ stagelink-transport ───────────┐
 *                 ▲    ├▶ http request (defaults)     ───┤
 *                 │    ├▶ http request (keep-alive on) ──┤
 *                 │    └▶ http response                  │
 *                 └──────────── completions, catch ◀─────┘
 */

export const CONTENDERS = ['transport', 'http', 'httpKeepAlive'] as const;
export type Contender = (typeof CONTENDERS)[number];

/** What the driver answers about one run. */
export interface FlowRun {
  latencies: number[];
  failed: number;
  elapsedMs: number;
}

/** Runs in the function node: `global.get('now')` is performance.now() from the settings. */
const DRIVER = `
const now = global.get('now');
const OUTPUTS = ${JSON.stringify(CONTENDERS)};
const cue = (run) => {
  run.sent++;
  return { startedAt: now(), payload: { transports: [{ name: 'main' }] }, headers: { 'content-type': 'application/json' } };
};
const route = (run, msgs) => OUTPUTS.map((name) => (name === run.contender ? msgs : null)).concat([null]);
if (msg.req) {
  const { contender, inFlight, count } = msg.payload;
  const run = { contender, count, sent: 0, done: 0, failed: 0, latencies: [], started: now(), reply: msg };
  context.set('run', run);
  const first = [];
  while (run.sent < Math.min(inFlight, count)) first.push(cue(run));
  return route(run, first);
}
const run = context.get('run');
if (!run) return null;
if (msg.error) run.failed++;
else run.latencies.push(now() - msg.startedAt);
run.done++;
if (run.done === run.count) {
  context.set('run', undefined);
  run.reply.payload = { latencies: run.latencies, failed: run.failed, elapsedMs: now() - run.started };
  return OUTPUTS.map(() => null).concat([run.reply]);
}
return run.sent < run.count ? route(run, [cue(run)]) : null;
`;

/** The flow, against the media server at `mediaServerUrl`. */
export function benchFlow(mediaServerUrl: string): unknown[] {
  const tab = 'bench-tab';
  const httpRequest = (id: string, persist: boolean) => ({
    id,
    type: 'http request',
    z: tab,
    name: id,
    method: 'POST',
    ret: 'obj',
    paytoqs: 'ignore',
    url: `${mediaServerUrl}/api/session/transport/play`,
    persist,
    wires: [['driver']],
  });
  const nodes: Record<string, unknown>[] = [
    // followDirector is left at the editor's default (on), as a user's config node would be.
    { id: 'server', type: 'stagelink-server', name: 'simulator', host: mediaServerUrl, followDirector: true },
    { id: 'run', type: 'http in', z: tab, url: '/bench/run', method: 'post', wires: [['driver']] },
    { id: 'driver', type: 'function', z: tab, name: 'driver', func: DRIVER, outputs: 4, wires: [['transport'], ['http'], ['httpKeepAlive'], ['reply']] },
    { id: 'transport', type: 'stagelink-transport', z: tab, server: 'server', command: 'play', transport: 'main', transportType: 'str', wires: [['driver']] },
    httpRequest('http', false),
    httpRequest('httpKeepAlive', true),
    { id: 'catch', type: 'catch', z: tab, scope: [...CONTENDERS], wires: [['driver']] },
    { id: 'reply', type: 'http response', z: tab, wires: [] },
  ];
  // Node-RED takes a node without a position for a config node: give each flow node a place on the tab.
  return [{ id: tab, type: 'tab', label: 'stagelink bench' }, ...nodes.map((node, index) => ('z' in node ? { x: 200, y: 40 + 60 * index, ...node } : node))];
}
