/**
 * The measured side of the `companion-live` benchmark, forked by it on Node 22 (the runtime Companion gives the
 * module) with an IPC channel: the packed module in the stand-in for Companion, connected to the server the
 * benchmark names, with an `fps_alert` and a `stale` feedback on every machine, as a desk of FPS tiles has them.
 * It reports each update of a machine's FPS variable with when the variable was set and when the desk was up to date
 * with it: that machine's next `fps_alert` check completed, or, for a value that moved no alert and so asked for no
 * check, when a check it asked for would have completed; in milliseconds of `process.hrtime`, the monotonic clock
 * every process on the machine reads alike, so the benchmark can set them against when the server sent the value.
 *
 *   to the probe:   { type: 'start', url, machines } then { type: 'stop' }
 *   from the probe: { type: 'ready', ids } once every machine's FPS is live, then { type: 'update', ... } each
 *                   time, or { type: 'error', message }
 */
import { CompanionHost, type HostEvent } from './companion-host.js';
import { loadPackedModule } from './packed-module.js';

export type ToProbe = { type: 'start'; url: string; machines: number } | { type: 'stop' };
export type FromProbe =
  | { type: 'ready'; ids: string[] }
  | { type: 'update'; id: string; value: number; variableMs: number; feedbackMs: number }
  | { type: 'error'; message: string };

const FPS_VARIABLE = /^machine_(.+)_fps$/;

/** Milliseconds of the monotonic clock, to the microsecond. */
const nowMs = (): number => Number(process.hrtime.bigint() / 1000n) / 1000;

function send(message: FromProbe): void {
  process.send?.(message);
}

async function run(url: string, machines: number): Promise<CompanionHost> {
  const host = new CompanionHost(await loadPackedModule());
  await host.start({ config: { host: url, followDirector: true, backupHosts: '', hosts: '', smcs: '', smcUser: '', frameRate: 60 } });
  const fpsIds = (): string[] => Object.keys(host.variableDefinitions).flatMap((id) => FPS_VARIABLE.exec(id)?.[1] ?? []);
  await host.waitFor(() => fpsIds().length >= machines, `${machines} machines`, 30_000);
  const ids = fpsIds();
  for (const id of ids) {
    host.placeFeedback('fps_alert', { machine: id });
    host.placeFeedback('stale', { subject: `machine_${id}` });
  }
  await host.waitFor(() => ids.every((id) => typeof host.variables.get(`machine_${id}_fps`) === 'number'), 'every FPS live', 30_000);
  // Per machine, the FPS updates still waiting for their machine's next fps_alert check.
  const waiting = new Map<string, { value: number; variableMs: number }[]>();
  host.watch((event: HostEvent) => {
    const at = nowMs();
    if (event.kind === 'variables') {
      for (const [variable, value] of Object.entries(event.values)) {
        const id = FPS_VARIABLE.exec(variable)?.[1];
        if (id === undefined || typeof value !== 'number') continue;
        waiting.set(id, [...(waiting.get(id) ?? []), { value, variableMs: at }]);
        // The module checks a feedback type only when its inputs changed: a value that moves no alert asks no
        // check. A check it asked for completes within the microtasks after the variables; once they ran, an update
        // still waiting needed none, and the desk was up to date then.
        setImmediate(() => {
          const still = waiting.get(id);
          if (!still) return;
          const upToDate = nowMs();
          for (const update of still) send({ type: 'update', id, ...update, feedbackMs: upToDate });
          waiting.delete(id);
        });
      }
    } else if (event.feedbackId === 'fps_alert') {
      const machine = event.options['machine'];
      const id = typeof machine === 'string' ? machine : '';
      for (const update of waiting.get(id) ?? []) send({ type: 'update', id, ...update, feedbackMs: at });
      waiting.delete(id);
    }
  });
  send({ type: 'ready', ids });
  return host;
}

let host: CompanionHost | undefined;
process.on('message', (message: ToProbe) => {
  if (message.type === 'start') {
    run(message.url, message.machines).then(
      (started) => (host = started),
      (error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  } else {
    void (host?.destroy() ?? Promise.resolve()).finally(() => process.exit(0));
  }
});
