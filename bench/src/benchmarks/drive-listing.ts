import { DriveClient, type VersionPage } from '@stagelink/core';
import { request } from 'undici';
import { simControl } from '@stagelink/simulator';
import { compareRounds } from '../harness/compare.js';
import { millis } from '../harness/format.js';
import { atLeast, type Benchmark, type ResultRow } from '../harness/report.js';
import { startSimulatorProcess, type SimulatorProcess } from '../harness/simulator-process.js';
import { median } from '../harness/stats.js';
import { interleavedRounds } from '../harness/timing.js';

const VERSIONS = 5000;
const LATENCY_MS = 20;
const SPEED_UP = 3;
/** Page sizes and rounds: the recommended top of 100 (50 pages), and the server default of 15 (334 pages). */
const CASES = [
  { perPage: 100, rounds: 7 },
  { perPage: 15, rounds: 3 },
] as const;

interface Asset {
  driveId: string;
  contentId: string;
}

/** One listing: the ids in the order they came, and how long it took. */
interface Listing {
  ids: string[];
  ms: number;
}

interface CaseRounds {
  perPage: number;
  core: Listing[];
  links: Listing[];
}

export const driveListing: Benchmark = {
  id: 'drive-listing',
  name: 'drive listing',
  subject: `core \`drive.versions.list\` over ${VERSIONS.toLocaleString('en-US')} versions, ${LATENCY_MS} ms added server latency`,
  baseline: 'following `links.next` one page at a time (bare undici)',
  async run(log) {
    // The drive in its own process, as the cloud service is: its work does not queue behind the client's.
    const sim = await startSimulatorProcess();
    const service = sim.drive;
    const drive = new DriveClient({ baseUrl: service.url, token: service.token });
    try {
      const { asset } = await simControl<{ asset: Asset }>(service.url, { action: 'addAsset', versions: VERSIONS });
      await simControl(service.url, { action: 'latency', ms: LATENCY_MS });
      const cases: CaseRounds[] = [];
      for (const { perPage, rounds } of CASES) {
        log(`${perPage} per page: ${rounds} rounds`);
        const listings = await interleavedRounds(rounds, {
          core: () => timed(() => coreListing(drive, asset, perPage)),
          links: () => timed(() => followNextLinks(service, asset, perPage)),
        });
        cases.push({ perPage, ...listings });
      }
      return { rows: cases.flatMap(rows), details: details(cases) };
    } finally {
      await drive.close();
      await sim.stop();
    }
  },
};

async function timed(list: () => Promise<string[]>): Promise<Listing> {
  const started = performance.now();
  const ids = await list();
  return { ids, ms: performance.now() - started };
}

async function coreListing(drive: DriveClient, asset: Asset, perPage: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const version of drive.versions.list({ ...asset, perPage })) ids.push(version.id);
  return ids;
}

/** What a client without core does: ask for the first page, then whatever `links.next` says, until it is null. */
async function followNextLinks(service: SimulatorProcess['drive'], asset: Asset, perPage: number): Promise<string[]> {
  const ids: string[] = [];
  const headers = { accept: 'application/json', authorization: `Token ${service.token}` };
  let next: string | null = `${service.url}/v1/drives/${asset.driveId}/content/${asset.contentId}/versions?per_page=${perPage}`;
  while (next !== null) {
    const response = await request(next, { headers });
    const page = (await response.body.json()) as VersionPage;
    for (const version of page.data) ids.push(version.id);
    next = page.links.next;
  }
  return ids;
}

function rows({ perPage, core, links }: CaseRounds): ResultRow[] {
  const pages = Math.ceil(VERSIONS / perPage);
  const [coreMs, linksMs] = [core, links].map((listings) => listings.map((listing) => listing.ms)) as [number[], number[]];
  // Time following links over time through core: how many times faster core lists.
  const speedUp = compareRounds(linksMs, coreMs);
  const expected = links[0]?.ids ?? [];
  const sameOrder = [...core, ...links].every((listing) => sameIds(listing.ids, expected));
  return [
    {
      case: `${perPage} per page (${pages} pages)`,
      subject: millis(median(coreMs)),
      baseline: millis(median(linksMs)),
      ratioLabel: 'speed-up',
      ratio: speedUp.ratio,
      ratioRange: speedUp.ratioRange,
      target: `>= ${SPEED_UP}x faster`,
      verdict: atLeast(speedUp.ratio, SPEED_UP),
    },
    {
      case: `${perPage} per page: items and order`,
      subject: `${core[0]?.ids.length ?? 0} versions`,
      baseline: `${expected.length} versions`,
      target: 'same items, same order',
      verdict: sameOrder && expected.length === VERSIONS ? 'met' : 'missed',
    },
  ];
}

function sameIds(ids: readonly string[], expected: readonly string[]): boolean {
  return ids.length === expected.length && ids.every((id, index) => id === expected[index]);
}

function details(cases: CaseRounds[]): Record<string, unknown> {
  return {
    versions: VERSIONS,
    latencyMs: LATENCY_MS,
    cases: cases.map(({ perPage, core, links }) => ({
      perPage,
      coreMs: core.map((listing) => listing.ms),
      followingLinksMs: links.map((listing) => listing.ms),
    })),
  };
}
