/**
 * The measured side of the `companion-feedback-checks` benchmark, forked by it on Node 22 with an IPC channel: the
 * packed module in the stand-in for Companion, connected to the server the benchmark names, with a desk of placed
 * buttons as a show has them (per machine an FPS tile, a stale mark and a health tile; per transport play, stop and
 * a stale mark; the link and armed marks), dealt round-robin until there are as many as asked. It counts the
 * feedback checks Companion runs, and answers the count when asked.
 *
 *   to the probe:   { type: 'start', url, machines, buttons }, { type: 'count' }, { type: 'stop' }
 *   from the probe: { type: 'ready', buttons } once every machine's FPS is live, { type: 'count', checks },
 *                   or { type: 'error', message }
 *
 * STAGELINK_COMPANION_CHECK_ALL=1 in its environment makes the module check every feedback type on every change,
 * as releases up to 0.2 did: the benchmark's baseline.
 */
import type { JsonValue } from '@companion-module/base';
import { CompanionHost } from './companion-host.js';
import { loadPackedModule } from './packed-module.js';

export type ToFeedbackProbe = { type: 'start'; url: string; machines: number; buttons: number } | { type: 'count' } | { type: 'stop' };
export type FromFeedbackProbe = { type: 'ready'; buttons: number } | { type: 'count'; checks: number } | { type: 'error'; message: string };

function send(message: FromFeedbackProbe): void {
  process.send?.(message);
}

let checks = 0;

async function run(url: string, machines: number, buttons: number): Promise<CompanionHost> {
  const host = new CompanionHost(await loadPackedModule());
  await host.start({ config: { host: url, followDirector: true, backupHosts: '', hosts: '', smcs: '', smcUser: '', frameRate: 60 } });
  const ids = (pattern: RegExp): string[] => Object.keys(host.variableDefinitions).flatMap((id) => pattern.exec(id)?.[1] ?? []);
  await host.waitFor(() => ids(/^machine_(.+)_fps$/).length >= machines, `${machines} machines`, 30_000);
  await host.waitFor(() => ids(/^transport_(.+)_playmode$/).length > 0, 'the transports', 30_000);
  const machineIds = ids(/^machine_(.+)_fps$/);
  await host.waitFor(() => machineIds.every((id) => typeof host.variables.get(`machine_${id}_fps`) === 'number'), 'every FPS live', 30_000);
  const transports = Object.entries(host.variableDefinitions).flatMap(([variable, { name }]) => {
    const id = /^transport_(.+)_playmode$/.exec(variable)?.[1];
    return id === undefined ? [] : [{ id, name: name.replace(/: playmode$/, '') }];
  });
  const desk: [string, Record<string, JsonValue>][] = [
    ...machineIds.flatMap((id): [string, Record<string, JsonValue>][] => [
      ['fps_alert', { machine: id }],
      ['stale', { subject: `machine_${id}` }],
      ['health', { machine: id }],
    ]),
    ...transports.flatMap(({ id, name }): [string, Record<string, JsonValue>][] => [
      ['playing', { transport: name }],
      ['playmode', { transport: name, playmode: 'Stop' }],
      ['stale', { subject: `transport_${id}` }],
    ]),
    ['link', {}],
    ['armed', { action: 'failovermachine', target: 'ACTOR01' }],
  ];
  for (let index = 0; index < buttons; index++) {
    const [feedbackId, options] = desk[index % desk.length] ?? ['link', {}];
    host.placeFeedback(feedbackId, options);
  }
  host.watch((event) => {
    if (event.kind === 'feedback') checks += 1;
  });
  send({ type: 'ready', buttons });
  return host;
}

let host: CompanionHost | undefined;
process.on('message', (message: ToFeedbackProbe) => {
  if (message.type === 'start') {
    run(message.url, message.machines, message.buttons).then(
      (started) => (host = started),
      (error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  } else if (message.type === 'count') {
    send({ type: 'count', checks });
  } else {
    void (host?.destroy() ?? Promise.resolve()).finally(() => process.exit(0));
  }
});
