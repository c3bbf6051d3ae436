import { simControl, startSimulator, type ControlRequest, type LogEntry, type Simulator, type SimulatorSummary } from '@stagelink/simulator';

export interface TestSession {
  sim: Simulator;
  /** Every request the machines received, in order. */
  requests: { method: string; path: string }[];
  /** Hostname to address of every machine, for the bridge's `hosts` (names a dialect may not make resolvable). */
  hosts: Record<string, string>;
  control(action: ControlRequest): Promise<SimulatorSummary>;
  /** Requests that would change the show (POSTs to the session family) since `since`. */
  cuesSince(since: number): { method: string; path: string }[];
}

/**
 * The simulator's `session` scenario: a director, two actors and an understudy, each a real server; in the dialect
 * `STAGELINK_SIM_DIALECT` names unless `options.dialect` does.
 */
export async function startSession(options: { dnssd?: boolean; dialect?: 'spec' | 'r34' } = {}): Promise<TestSession> {
  const requests: TestSession['requests'] = [];
  const sim = await startSimulator({
    ...options,
    scenario: 'session',
    log: (entry: LogEntry) => {
      if (entry.event === 'request') requests.push({ method: String(entry.method), path: String(entry.path) });
    },
  });
  const hosts = Object.fromEntries(sim.machines().map((machine) => [machine.hostname, new URL(machine.url).host]));
  return {
    sim,
    requests,
    hosts,
    control: (action) => {
      // Any running machine takes control actions: not the one being stopped, which closes as it answers.
      const running = sim.machines().find((machine) => machine.running && machine.hostname !== action.hostname)?.url ?? sim.mediaServer.url;
      return simControl(running, action);
    },
    cuesSince: (since) => requests.slice(since).filter((entry) => entry.method === 'POST' && entry.path.startsWith('/api/session/') && !entry.path.startsWith('/__sim')),
  };
}
