// Types for packages/node-red/scripts/lib/start-demo.mjs, the `pnpm start` setup (plain JavaScript there).
declare module '@stagelink/node-red/scripts/lib/start-demo.mjs' {
  import type { Simulator } from '@stagelink/simulator';

  export interface NodeRedProcess {
    /** The editor's origin, e.g. http://127.0.0.1:41234 */
    url: string;
    /** Everything Node-RED printed, in chunks. */
    log: string[];
    stop(): Promise<void>;
  }

  export interface Demo {
    red: NodeRedProcess;
    sim: Simulator;
    /** The show-monitor dashboard's page, e.g. http://127.0.0.1:41234/dashboard/show-monitor */
    dashboardUrl: string;
    stop(): Promise<void>;
  }

  export function startDemo(options: {
    userDir: string;
    port?: number;
    simPort?: number;
    drivePort?: number;
    credentialSecret: string;
    echo?: boolean;
  }): Promise<Demo>;
}
