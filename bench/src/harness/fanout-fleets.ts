import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import type { ChildMessage, ConsumersConfig, ParentMessage } from './fanout-consumers.js';
import { LatencyHistogram } from './latency-histogram.js';
import type { SentLog } from './value-matching.js';

const CONSUMERS = fileURLToPath(new URL('fanout-consumers.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** What every fleet's consumers got of a window's values, together. */
export interface FleetsWindow {
  delivered: number;
  /** FPS values received from `record` to the report, matched or not. */
  fpsValues: number;
  healthMessages: number;
  latencies: LatencyHistogram;
}

export interface Fleets {
  record(): void;
  /** Hands every fleet the director's sends and the window, and merges what they answer. */
  report(sent: Record<string, SentLog>, from: number, to: number): Promise<FleetsWindow>;
  stop(): Promise<void>;
}

/** `count` consumers spread over `processes` child processes, all connected and subscribed when it resolves. */
export async function startFleets(config: Omit<ConsumersConfig, 'count'>, count: number, processes: number): Promise<Fleets> {
  const started = await Promise.allSettled(
    Array.from({ length: processes }, (_, index) => startFleet({ ...config, count: Math.floor(count / processes) + (index < count % processes ? 1 : 0) })),
  );
  const fleets = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.all(fleets.map((fleet) => fleet.stop()));
    throw failed.reason;
  }
  return {
    record: () => {
      for (const fleet of fleets) fleet.send({ type: 'record' });
    },
    report: async (sent, from, to) => {
      const windows = await Promise.all(fleets.map((fleet) => fleet.report({ type: 'report', sent, from, to })));
      const latencies = new LatencyHistogram();
      for (const window of windows) latencies.merge(window.latencies);
      const sum = (key: 'delivered' | 'fpsValues' | 'healthMessages') => windows.reduce((total, window) => total + window[key], 0);
      return { delivered: sum('delivered'), fpsValues: sum('fpsValues'), healthMessages: sum('healthMessages'), latencies };
    },
    stop: async () => {
      await Promise.all(fleets.map((fleet) => fleet.stop()));
    },
  };
}

interface Fleet {
  send(message: ParentMessage): void;
  report(message: Extract<ParentMessage, { type: 'report' }>): Promise<Extract<ChildMessage, { type: 'window' }>>;
  stop(): Promise<void>;
}

async function startFleet(config: ConsumersConfig): Promise<Fleet> {
  const child = fork(CONSUMERS, [JSON.stringify(config)], { execArgv: ['--import', TSX], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // A message to a child that has just exited fails on the channel; its exit is what the caller hears about.
  child.on('error', () => undefined);
  const next = <Type extends ChildMessage['type']>(type: Type) =>
    new Promise<Extract<ChildMessage, { type: Type }>>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message.type === 'error') reject(new Error(`consumer process: ${message.message}`));
        else if (message.type === type) resolve(message as Extract<ChildMessage, { type: Type }>);
        else return;
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onExit = (code: number | null) => reject(new Error(`consumer process exited with ${String(code)}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.send({ type: 'stop' } satisfies ParentMessage);
    await Promise.race([exited, delay(5000).then(() => child.kill('SIGKILL'))]);
  };
  try {
    await next('ready');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    send: (message) => void child.send(message),
    report: async (message) => {
      const answer = next('window');
      child.send(message);
      return answer;
    },
    stop,
  };
}
