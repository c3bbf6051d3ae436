// Types for testing.mjs (plain JavaScript, so `pnpm start` runs it without a build).
import type { NodeRedProcess } from '@stagelink/node-red/testing';
import type { Dialect, Simulator } from '@stagelink/simulator';

export interface Demo {
  red: NodeRedProcess;
  sim: Simulator;
  /** The show-monitor dashboard's page, e.g. http://127.0.0.1:41234/dashboard/show-monitor */
  dashboardUrl: string;
  stop(): Promise<void>;
}

/** `pnpm start`'s setup: the simulator, and a Node-RED in `userDir` with the nodes, the dashboard and the examples deployed. */
export function startDemo(options: {
  userDir: string;
  /** The address the simulator and Node-RED listen on (default 127.0.0.1). */
  host?: string;
  port?: number;
  simPort?: number;
  drivePort?: number;
  credentialSecret: string;
  dialect?: Dialect;
  echo?: boolean;
}): Promise<Demo>;
