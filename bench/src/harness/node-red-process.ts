import { startNodeRed as startRuntime, writeSettings } from '@stagelink/node-red/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuProfileArgs } from './profiling.js';

/** A Node-RED runtime in its own process, with a flow file and loose node files, in a throw-away user dir. */
export interface NodeRedProcess {
  url: string;
  /** For reading its CPU time (timing.ts, processCpuMs). */
  pid: number;
  /** SIGINT, as Ctrl-C would; resolves when Node-RED has exited and its user dir is gone. */
  stop(): Promise<void>;
}

export interface NodeRedOptions {
  flows: unknown[];
  /** A folder of node files (`<type>.js` + `<type>.html`) loaded as Node-RED's `nodesDir`. */
  nodesDir: string;
}

/**
 * `now` in the global context gives function nodes a sub-millisecond clock (`global.get('now')()`), which the
 * benchmark flows time cues with.
 */
const CLOCK = '  functionGlobalContext: { now: () => performance.now() },';

export async function startNodeRed({ flows, nodesDir }: NodeRedOptions): Promise<NodeRedProcess> {
  const userDir = await mkdtemp(join(tmpdir(), 'stagelink-bench-node-red-'));
  const removeUserDir = (): Promise<void> => rm(userDir, { recursive: true, force: true });
  try {
    await writeFile(join(userDir, 'flows.json'), JSON.stringify(flows));
    writeSettings(userDir, { credentialSecret: false, settings: { nodesDir }, extra: CLOCK });
    const red = await startRuntime({ userDir, nodeArgs: cpuProfileArgs(), waitForFlows: true, timeoutMs: 60_000 });
    return { url: red.url, pid: red.pid, stop: () => red.stop().then(removeUserDir) };
  } catch (error) {
    await removeUserDir();
    throw error;
  }
}
