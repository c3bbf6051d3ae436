import { isUnreachable, reasonOf } from '../errors.js';
import type { PollReadOptions } from '../shared-poll.js';
import { readHardware } from './readings.js';
import type { PollState } from './hardware-snapshot.js';

/** The three reads of one poll, each with the poll's deadline and signal. */
export interface HardwareSources {
  stats(options: PollReadOptions): Promise<unknown>;
  powerStatus(options: PollReadOptions): Promise<unknown>;
  outputs(options: PollReadOptions): Promise<unknown>;
}

/**
 * One poll of a machine's management controller: its three reads at once, as the machine's state. Never rejects:
 * the stats are what must answer (the power status is behind a login on some builds, the cards absent on other
 * makes); an SMC that does not answer by the deadline is offline, one that answers with an error keeps its last
 * readings, stale.
 */
export async function pollHardware(sources: HardwareSources, last: PollState | undefined, options: PollReadOptions): Promise<PollState> {
  const [stats, powerStatus, outputs] = await Promise.allSettled([sources.stats(options), sources.powerStatus(options), sources.outputs(options)]);
  if (stats.status === 'fulfilled') {
    const readings = readHardware({
      stats: stats.value,
      ...(powerStatus.status === 'fulfilled' ? { powerStatus: powerStatus.value } : {}),
      ...(outputs.status === 'fulfilled' ? { outputs: outputs.value } : {}),
    });
    return { status: 'online', readings, readAt: Date.now() };
  }
  const error: unknown = stats.reason;
  if (isUnreachable(error) || last === undefined || last.status === 'offline') {
    const why = isUnreachable(error) ? `did not answer within ${options.timeoutMs / 1000} s` : 'answered with an error';
    return { status: 'offline', problem: `the management controller ${why}: ${reasonOf(error)}` };
  }
  const { readings, readAt } = last;
  const at = new Date(readAt).toISOString().slice(11, 19);
  return { status: 'stale', readings, readAt, problem: `the management controller answered with an error, readings are from ${at} UTC: ${reasonOf(error)}` };
}
