import { DriveClient, endpointList, MediaServer, livePresets } from '@stagelink/core';
import type { RunContext } from '../context.js';
import { HTTP_ANSWERS } from '../hostile/answers.js';
import { HostileServer } from '../hostile/hostile-server.js';
import { brief, isClearError } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';
import { settleWithin } from '../support/deadline.js';
import { sleep, waitUntil } from '../support/time.js';

/** An answer must come within the call's deadline (3 s here) plus margin; later is a hang. */
const CALL_LIMIT_MS = 15_000;
const SOCKET_RELEASE_MS = 5000;

/**
 * @stagelink/core against a server that only answers badly: every endpoint of the catalogue, round after
 * round, and live subscriptions fed malformed frames. Each call must resolve or reject with a clear
 * StagelinkError; nothing may throw past the client (the run counts that as a crash) or hang.
 */
export async function coreMalformedAnswers(context: RunContext): Promise<Tally> {
  const tally = new Tally('core: malformed answers');
  const hostile = await HostileServer.start(context.random.fork('core-hostile'));
  // The drive gets a server of its own, so every kind of answer meets a drive call each round.
  const hostileDrive = await HostileServer.start(context.random.fork('core-hostile-drive'));
  const client = new MediaServer({ host: hostile.url, timeoutMs: 3000, retries: 1 });
  const drive = new DriveClient({ baseUrl: hostileDrive.url, token: 'hardening-drive-token', timeoutMs: 3000, retries: 0 });
  try {
    const calls = driveCalls(drive);
    for (let round = 0; round < context.budget.coreRounds; round++) {
      for (const spec of endpointList) await callOnce(client, spec, tally, hostile);
      for (let index = 0; index < HTTP_ANSWERS.length; index++) {
        const [name, call] = calls[index % calls.length] as DriveCall;
        await settle(name, call(), tally, hostileDrive);
      }
    }
    context.progress(`core: ${tally.inputs} calls against the hostile server`);
    await liveFrames(client, hostile, context, tally);
  } finally {
    await client.close();
    await drive.close();
    await hostile.close();
    await hostileDrive.close();
  }
  return tally.finish();
}

async function callOnce(client: MediaServer, spec: (typeof endpointList)[number], tally: Tally, hostile: HostileServer): Promise<void> {
  // Guarded endpoints are confirmed here: this server is no machine, and their answers need handling too.
  const input = { body: {}, params: { mac: '02-53-4C-00-00-01' }, query: {} };
  await settle(spec.id, client.call(spec, input, { confirm: true }), tally, hostile);
}

/** Every drive operation, against the same server (it answers drive paths as badly as the others). */
type DriveCall = [string, () => Promise<unknown>];

function driveCalls(drive: DriveClient): DriveCall[] {
  const ref = { driveId: 'd1', contentId: 'c1', versionId: 'v1' };
  return [
    ['drive list (all pages)', async () => {
      for await (const version of drive.versions.list({ driveId: 'd1', contentId: 'c1' })) void version;
    }],
    ['drive list (one page)', () => drive.versions.list({ driveId: 'd1', contentId: 'c1', page: 2 }).page()],
    ['drive get', () => drive.versions.get(ref)],
    ['drive update', () => drive.versions.update({ ...ref, label: 'x', setActive: true })],
    ['drive delete', () => drive.versions.delete(ref)],
  ];
}

async function settle(what: string, call: Promise<unknown>, tally: Tally, hostile: HostileServer): Promise<void> {
  tally.inputs++;
  const outcome = await settleWithin(call, CALL_LIMIT_MS);
  if (outcome.kind === 'resolved') tally.ok++;
  else if (outcome.kind === 'timeout') {
    tally.silentLosses++;
    tally.finding(`${what} never settled; last answers: ${hostile.recent().slice(-2).join(' | ')}`);
  } else if (isClearError(outcome.error)) tally.errors++;
  else tally.finding(`${what} failed with an unclear error: ${brief(String(outcome.error))} (after: ${hostile.recent().at(-1) ?? '?'})`);
}

/** Five live subscriptions on one socket while every malformed frame goes by; then all are released. */
async function liveFrames(client: MediaServer, hostile: HostileServer, context: RunContext, tally: Tally): Promise<void> {
  const requests = [livePresets.localFps(), livePresets.cpu(), livePresets.gpuMemory(), livePresets.remoteFps('127.0.0.1'), livePresets.processMemory()];
  let values = 0;
  let problems = 0;
  client.live.on('problem', () => problems++);
  const subscriptions = requests.map((request) => client.live.subscribe(request, () => values++, { onError: () => problems++ }));
  const opened = await waitUntil(() => hostile.liveSockets > 0, 5000);
  tally.expect(opened === true, 'no live socket opened to the broken server within 5 s: its malformed frames reached no subscription');
  const framesBefore = hostile.framesSent;
  hostile.streamFrames(25);
  await sleep(context.budget.liveSeconds * 1000);
  hostile.stopFrames();
  const frames = hostile.framesSent - framesBefore;
  tally.inputs += frames;
  tally.ok += frames;
  tally.expect(client.live.status !== 'connecting', `the live stream was still connecting after ${context.budget.liveSeconds} s of malformed frames`);
  tally.note(`live: ${frames} malformed frames to ${requests.length} subscriptions on one socket: ${values} values delivered, ${problems} problems reported`);
  for (const subscription of subscriptions) subscription.close();
  const released = await waitUntil(() => hostile.liveSockets === 0, SOCKET_RELEASE_MS);
  if (!released) tally.leakedSockets += hostile.liveSockets;
}
