import { startBridge, type Bridge, type BridgeOptions } from '../../src/index.js';
import { startMosquitto, type Mosquitto, type MosquittoOptions } from '../../src/testing.js';
import { startSession, type TestSession } from './session.js';

/** A real Mosquitto and the simulator's session: what a bridge under test connects to. */
export interface TestVenue {
  broker: Mosquitto;
  session: TestSession;
  /** The bridge's command line for this venue: the session, where its machines are, the broker, the topic prefix. */
  bridgeArgs(prefix: string): string[];
  /**
   * A bridge in this process on this venue, publishing under `prefix`: it follows the director, knows where the
   * machines are and reads every 500 ms, unless `options` say otherwise.
   */
  startBridge(prefix: string, options?: Partial<BridgeOptions>): Promise<Bridge>;
  close(): Promise<void>;
}

/**
 * `sessionOptions.dnssd` announces the session over DNS-SD on loopback (take the loopback turn first);
 * `sessionOptions.dialect` picks the simulator's dialect whatever `STAGELINK_SIM_DIALECT` says.
 */
export async function startVenue(brokerOptions?: MosquittoOptions, sessionOptions: { dnssd?: boolean; dialect?: 'spec' | 'r34' } = {}): Promise<TestVenue> {
  const broker = await startMosquitto(brokerOptions);
  let session: TestSession;
  try {
    session = await startSession(sessionOptions);
  } catch (error) {
    await broker.close();
    throw error;
  }
  const hosts = Object.entries(session.hosts).map(([hostname, address]) => `${hostname}=${address}`);
  return {
    broker,
    session,
    bridgeArgs: (prefix) => ['--server', session.sim.mediaServer.url, '--mqtt', broker.url, '--prefix', prefix, '--hosts', hosts.join(',')],
    startBridge: (prefix, options) =>
      startBridge({ server: session.sim.mediaServer.url, mqtt: broker.url, prefix, followDirector: true, hosts: session.hosts, pollIntervalMs: 500, ...options }),
    close: async () => {
      await session.sim.close();
      await broker.close();
    },
  };
}
