import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_HARDWARE_EVERY_MS, MediaServer, type HardwareWatch, type SmcMap } from '@stagelink/core';
import { closeFakeSmc, startFakeSmc, type FakeSmc } from '../harness/fake-smc.js';
import { atMost, type Benchmark, type ResultRow } from '../harness/report.js';

const MACHINES = 40;
/** Watchers per machine: a Companion button, a Node-RED node and a bridge topic, say. */
const WATCHERS_PER_MACHINE = 3;
/** The requests of one poll: chassis stats, power status, video formatting cards. */
const REQUESTS_PER_POLL = 3;
/** Whole poll periods counted, after the first poll has ended. */
const PERIODS = 3;
/** A peer module polls five GET paths of each SMC every second (field notes). */
const PEER_REQUESTS_PER_SECOND = 5;

/**
 * Hardware health of a 40-machine venue at the default period (15 s): every machine's SMC watched by three watchers,
 * in one client (as one front end holds them) and in three clients (three front ends, each with its own poll), the
 * requests each SMC gets a second counted at the SMC, against a peer module that polls five paths every second. The
 * API documents discourage polling REST endpoints at high frequency; this row says how hard stagelink polls.
 */
export const hardwarePoll: Benchmark = {
  id: 'hardware-poll',
  name: 'hardware poll',
  subject: `${MACHINES} SMCs watched by ${WATCHERS_PER_MACHINE} watchers each, every ${DEFAULT_HARDWARE_EVERY_MS / 1000} s, in one client`,
  baseline: `a peer polling five GET paths of every SMC each second; the same watchers in ${WATCHERS_PER_MACHINE} clients`,
  async run(log) {
    const smcs = await Promise.all(Array.from({ length: MACHINES }, () => startFakeSmc()));
    try {
      const smcMap: SmcMap = Object.fromEntries(smcs.map((smc, index) => [`ACTOR${String(index + 1).padStart(2, '0')}`, { host: smc.url }]));
      log(`one client, ${MACHINES * WATCHERS_PER_MACHINE} watchers, ${PERIODS} periods of ${DEFAULT_HARDWARE_EVERY_MS / 1000} s`);
      const shared = await measure(smcs, [smcMap], log);
      log(`${WATCHERS_PER_MACHINE} clients, ${MACHINES} watchers each, ${PERIODS} periods`);
      const separate = await measure(smcs, Array.from({ length: WATCHERS_PER_MACHINE }, () => smcMap), log);
      const limit = REQUESTS_PER_POLL / (DEFAULT_HARDWARE_EVERY_MS / 1000);
      const rows: ResultRow[] = [
        {
          case: `requests a second per SMC (${MACHINES} SMCs, ${WATCHERS_PER_MACHINE} watchers each, one client)`,
          subject: `${shared.max.toFixed(3)} req/s`,
          baseline: `${PEER_REQUESTS_PER_SECOND.toFixed(3)} req/s`,
          ratioLabel: 'stagelink / peer',
          ratio: shared.max / PEER_REQUESTS_PER_SECOND,
          target: `<= ${limit.toFixed(2)} req/s (one set of ${REQUESTS_PER_POLL} per poll)`,
          verdict: atMost(shared.max, limit * 1.001),
          note: `highest of the ${MACHINES} SMCs, counted at the SMC over ${PERIODS} periods; the peer's rate is its code's (five paths each second), not measured here`,
        },
        {
          case: `requests a second, all ${MACHINES} SMCs together`,
          subject: `${shared.total.toFixed(2)} req/s`,
          baseline: `${(PEER_REQUESTS_PER_SECOND * MACHINES).toFixed(2)} req/s`,
          ratioLabel: 'stagelink / peer',
          ratio: shared.total / (PEER_REQUESTS_PER_SECOND * MACHINES),
          target: 'reported',
          verdict: 'reported',
        },
        {
          case: `requests a second per SMC, the same watchers in ${WATCHERS_PER_MACHINE} clients`,
          subject: `${separate.max.toFixed(3)} req/s`,
          baseline: `${shared.max.toFixed(3)} req/s`,
          ratioLabel: `${WATCHERS_PER_MACHINE} clients / 1`,
          ratio: shared.max > 0 ? separate.max / shared.max : 0,
          target: 'reference',
          verdict: 'reported',
          note: 'each client polls each machine once a period: front ends in separate processes add up',
        },
      ];
      return { rows, details: { machines: MACHINES, watchersPerMachine: WATCHERS_PER_MACHINE, everyMs: DEFAULT_HARDWARE_EVERY_MS, periods: PERIODS, shared, separate, peerRequestsPerSecond: PEER_REQUESTS_PER_SECOND } };
    } finally {
      await Promise.all(smcs.map(closeFakeSmc));
    }
  },
};

/**
 * Opens the clients and watchers, waits for every first snapshot, then counts the SMCs' requests over whole periods,
 * from the middle of one to the middle of another.
 */
async function measure(smcs: FakeSmc[], clients: SmcMap[], log: (line: string) => void): Promise<{ max: number; min: number; total: number; seconds: number }> {
  const servers = clients.map((smcMap) => new MediaServer({ host: 'http://127.0.0.1:9', smcs: smcMap, timeoutMs: 5000 }));
  const watches: HardwareWatch[] = [];
  try {
    const perClient = WATCHERS_PER_MACHINE / clients.length;
    let seen = 0;
    for (const ms of servers) {
      for (const machine of Object.keys(clients[0] ?? {})) {
        for (let watcher = 0; watcher < perClient; watcher++) {
          let first = true;
          watches.push(ms.hardwareOf(machine).watch(() => {
            if (first) seen += 1;
            first = false;
          }));
        }
      }
    }
    while (seen < watches.length) await sleep(20);
    // Counted from mid-period to mid-period: each whole period's poll falls inside the window, none at its edges.
    await sleep(DEFAULT_HARDWARE_EVERY_MS / 2);
    const before = smcs.map((smc) => smc.requests);
    const started = performance.now();
    await sleep(PERIODS * DEFAULT_HARDWARE_EVERY_MS);
    const seconds = (performance.now() - started) / 1000;
    const rates = smcs.map((smc, index) => (smc.requests - (before[index] ?? 0)) / seconds);
    const total = rates.reduce((sum, rate) => sum + rate, 0);
    log(`${total.toFixed(2)} requests a second in all, ${Math.max(...rates).toFixed(3)} at most per SMC`);
    return { max: Math.max(...rates), min: Math.min(...rates), total, seconds };
  } finally {
    for (const watch of watches) watch.close();
    await Promise.all(servers.map((ms) => ms.close()));
  }
}
