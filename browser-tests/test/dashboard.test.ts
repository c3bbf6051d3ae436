/**
 * The show-monitor dashboard example in Chromium, set up as `pnpm start` sets it up (the simulator, Node-RED with
 * the stagelink nodes and the dashboard, the example flows): FPS moving on every machine's gauge, a health tile per
 * machine with its worst severity, a cue pressed on the page landing on the simulator, main's section counting down
 * (orange near its end), every gauge, tile and main's clock greyed out with STALE while the stream's values and the
 * polls stall (screenshot `dashboard-stale`) and with OFFLINE while the live stream is down (`dashboard-offline`),
 * and failover sent only once its dialog is confirmed.
 */
import { MediaServer, sessionMachines, worstHealth, type SessionMachine, type Transport } from '@stagelink/core';
import { simControl } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { startNodeRedDemo, type NodeRedDemo } from './support/node-red-demo.js';
import { saveScreenshot } from './support/screenshots.js';

interface DashboardNode {
  id: string;
  type: string;
  group?: string;
  name?: string;
  title?: string;
  label?: string;
}

/** A tile as the page paints it: its classes, its words, its background colour and its filter. */
interface TileLook {
  classes: string[];
  text: string;
  background: string;
  filter: string;
}

/** A health tile as the page shows it, next to the machine's worst severity read at the same moment. */
interface TileReading {
  expected: string;
  shown: string;
  colour: string | undefined;
}

const NODE_RED_PACKAGE = dirname(createRequire(import.meta.url).resolve('@stagelink/node-red/package.json'));
const EXAMPLE = JSON.parse(readFileSync(join(NODE_RED_PACKAGE, 'examples', 'show-monitor-dashboard.json'), 'utf8')) as DashboardNode[];

/** The example's widget of a type in a group, by its title or label, as the page renders it. */
function widget(page: Page, type: string, groupName: string, title: string): Locator {
  const group = EXAMPLE.find((node) => node.type === 'ui-group' && node.name === groupName);
  const node = EXAMPLE.find((candidate) => candidate.type === type && candidate.group === group?.id && (candidate.title ?? candidate.label) === title);
  if (!node) throw new Error(`The show-monitor example has no ${type} "${title}" in the group "${groupName}".`);
  return page.locator(`#nrdb-ui-widget-${node.id}`);
}

/** The tile's look, read in the page at one moment. */
function looks(tile: Locator): Promise<TileLook> {
  return tile.evaluate((element) => {
    const style = getComputedStyle(element);
    const text = element.querySelector<HTMLElement>('.nrdb-ui-text-value')?.innerText ?? '';
    return { classes: [...element.classList], text, background: style.backgroundColor, filter: style.filter };
  });
}

/**
 * Whether a CSS colour is a grey: its channels lie close together. The page's grey (#5b6170) spreads 21; amber
 * (#b7791f), orange (#dd6b20), red and green spread 78 and more.
 */
function isGrey(colour: string): boolean {
  const channels = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  if (channels.length !== 3) throw new Error(`Not an rgb() colour: ${colour}`);
  return Math.max(...channels) - Math.min(...channels) <= 32;
}

/** Greyed out as the page's style greys a gauge, and saying `word`: never read as a live value or as a warning. */
const greyedOut = (state: 'stale' | 'offline', word: RegExp) => (look: TileLook): boolean =>
  look.classes.includes(`stagelink-live-${state}`) && word.test(look.text) && isGrey(look.background) && look.filter.includes('grayscale');

/** In the clock's live colours (green, or orange near a section's end), not greyed. */
const liveClock = (look: TileLook): boolean =>
  look.classes.some((name) => name === 'stagelink-clock-online' || name === 'stagelink-clock-warning') && !isGrey(look.background) && look.filter === 'none';

describe('the show-monitor dashboard', () => {
  let demo: NodeRedDemo;
  let browser: Browser;
  let page: Page;
  let client: MediaServer;
  let machines: SessionMachine[];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    demo = await startNodeRedDemo();
    client = new MediaServer({ host: demo.sim.mediaServer.url, followDirector: false });
    machines = sessionMachines(await client.status.session()).map(({ machine }) => machine);
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(demo.dashboardUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await demo?.close();
  });

  afterEach(() => {
    expect(pageErrors, `script errors on the dashboard; Node-RED log:\n${demo.log().slice(-4000)}`).toEqual([]);
  });

  const main = async (): Promise<Transport | undefined> => (await client.transport.transports()).transports.find(({ name }) => name === 'main');
  /** The machines an understudy stands in for, from the health every machine reports. */
  const standingInForActor1 = async (): Promise<string[]> =>
    (await client.status.health()).filter((entry) => entry.runningAsMachine.name === 'Actor 1' && entry.machine.name !== 'Actor 1').map((entry) => entry.machine.name);
  const shownText = (locator: Locator): Promise<string> => locator.locator('.nrdb-ui-text-value').innerText();
  /** What main's show clock feeds: the playmode and track line, and the section countdown. */
  const mainClockTiles = (): Locator[] => [widget(page, 'ui-text', 'Transport main', 'main'), widget(page, 'ui-text', 'Transport main', 'Countdown')];

  it('shows every machine\'s FPS on its gauge, and the values move', async () => {
    for (const { name } of machines) {
      const value = widget(page, 'ui-gauge', 'Frame rate (average of 10 samples)', name).locator('.nrdb-ui-gauge-value span');
      // A frame rate, not an empty gauge: the simulator's machines run near 59.94 fps, dipping into the forties.
      await expect.poll(async () => Number(await value.innerText()), { timeout: 15_000, message: `${name}'s FPS` }).toBeGreaterThan(30);
      const first = await value.innerText();
      expect(Number(first)).toBeLessThan(61);
      await expect.poll(() => value.innerText(), { timeout: 20_000, message: `${name}'s FPS never changed from ${first}` }).not.toBe(first);
    }
  });

  it('gives every machine a health tile with its worst severity, in words and colour', async () => {
    for (const { name, hostname } of machines) {
      const tile = widget(page, 'ui-text', 'Health', name);
      // Read with the machine's severity at the same moment, so a severity that changes meanwhile cannot fail it.
      const reading = async (): Promise<TileReading> => {
        const expected = worstHealth(await client.status.health(), hostname);
        const classes = await tile.evaluate((element) => [...element.classList]);
        const colour = classes.find((name) => name.startsWith('stagelink-severity-'))?.slice('stagelink-severity-'.length);
        return { expected, shown: await shownText(tile), colour };
      };
      await expect
        .poll(reading, { timeout: 15_000, message: `the ${name} tile` })
        .toSatisfy((now: TileReading) => now.shown === now.expected && now.colour === now.expected);
    }
  });

  it('cues main from its buttons and shows its playmode and track', async () => {
    const playmode = widget(page, 'ui-text', 'Transport main', 'main');
    await page.getByRole('button', { name: 'Go to Act 1' }).click();
    await expect.poll(main).toMatchObject({ currentTrack: { name: 'Act 1' }, playmode: 'Play' });
    await expect.poll(() => shownText(playmode)).toBe('Play · Act 1');

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(main).toMatchObject({ currentTrack: { name: 'Act 1' }, playmode: 'Stop' });
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(main).toMatchObject({ playmode: 'Play' });
    await expect.poll(() => shownText(playmode)).toBe('Play · Act 1');
    await saveScreenshot(page, 'dashboard');
  });

  it("counts main's section down, orange near its end, and greys out with OFFLINE while the live link is down", async () => {
    const countdown = widget(page, 'ui-text', 'Transport main', 'Countdown');
    const reading = async () => ({ text: await shownText(countdown), classes: await countdown.evaluate((element) => [...element.classList]) });
    await client.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'Preshow' } });
    await client.transport.gotoTime({ transport: { name: 'main' }, time: 114, playmode: 'play' });
    await expect.poll(reading, { timeout: 10_000 }).toMatchObject({ text: expect.stringMatching(/^0:0[0-6] left in section 0$/) as unknown, classes: expect.arrayContaining(['stagelink-clock-warning']) as unknown });
    expect(isGrey((await looks(countdown)).background), 'the warning is orange').toBe(false);
    await saveScreenshot(page, 'dashboard-countdown');
    await expect.poll(reading, { timeout: 15_000 }).toMatchObject({ text: expect.stringMatching(/^1:5\d left in section 1$/) as unknown, classes: expect.arrayContaining(['stagelink-clock-online']) as unknown });

    await simControl(demo.sim.mediaServer.url, { action: 'refuseUpgrades', on: true });
    try {
      await simControl(demo.sim.mediaServer.url, { action: 'dropSockets' });
      await expect.poll(() => looks(countdown), { timeout: 10_000 }).toSatisfy(greyedOut('offline', /^OFFLINE$/));
    } finally {
      await simControl(demo.sim.mediaServer.url, { action: 'refuseUpgrades', on: false });
    }
    await expect.poll(() => shownText(countdown), { timeout: 30_000 }).toMatch(/left in section/);
    await expect.poll(() => looks(countdown), { timeout: 15_000 }).toSatisfy(liveClock);
  });

  it("greys out main's clock, its transport line, every gauge and health tile with STALE while values and polls stall, and shows them live again after", async () => {
    const clockTiles = mainClockTiles();
    const gauges = machines.map(({ name }) => ({ name, gauge: widget(page, 'ui-gauge', 'Frame rate (average of 10 samples)', name) }));
    const healthTiles = machines.map(({ name }) => ({ name, tile: widget(page, 'ui-text', 'Health', name) }));
    await client.transport.play({ name: 'main' });
    for (const tile of clockTiles) await expect.poll(() => looks(tile), { timeout: 15_000 }).toSatisfy(liveClock);

    // The live stream stays up and says nothing of the clock or the frame rates; every health poll fails although
    // the server answers: nothing on the page is current, and the page must show it.
    const silence = async (on: boolean): Promise<void> => {
      for (const pattern of ['transportmanager', 'fps']) await simControl(demo.sim.mediaServer.url, { action: 'silentLive', pattern, on });
      await simControl(demo.sim.mediaServer.url, { action: 'failNext', status: 500, count: on ? 1_000_000 : 0 });
    };
    await silence(true);
    try {
      await expect.poll(() => looks(clockTiles[0]!), { timeout: 30_000, message: 'the transport line' }).toSatisfy(greyedOut('stale', /^STALE \(\w+ · .+\)$/));
      await expect.poll(() => looks(clockTiles[1]!), { timeout: 30_000, message: 'the countdown' }).toSatisfy(greyedOut('stale', /^STALE \(\d+:\d\d left in section \d+\)$/));
      for (const { name, gauge } of gauges) {
        await expect.poll(() => looks(gauge), { timeout: 30_000, message: `${name}'s gauge` }).toSatisfy((look: TileLook) => look.classes.includes('stagelink-live-stale') && look.filter.includes('grayscale'));
        expect(await gauge.innerText()).toContain(`${name} · STALE`);
      }
      for (const { name, tile } of healthTiles) {
        await expect.poll(() => looks(tile), { timeout: 30_000, message: `${name}'s health tile` }).toSatisfy(greyedOut('stale', /^STALE$/));
      }
      await saveScreenshot(page, 'dashboard-stale');
    } finally {
      await silence(false);
    }
    for (const tile of clockTiles) await expect.poll(() => looks(tile), { timeout: 30_000 }).toSatisfy(liveClock);
    for (const { name, tile } of healthTiles) {
      await expect.poll(() => looks(tile), { timeout: 30_000, message: `${name}'s health tile` }).toSatisfy((look: TileLook) => look.classes.some((cls) => cls.startsWith('stagelink-severity-')) && look.filter === 'none');
    }
  });

  it("greys out every gauge and main's clock and says OFFLINE while the live stream is down, and shows them live again after", async () => {
    const gauges = machines.map(({ name }) => ({ name, gauge: widget(page, 'ui-gauge', 'Frame rate (average of 10 samples)', name) }));
    const clockTiles = mainClockTiles();
    const classes = (locator: Locator): Promise<string[]> => locator.evaluate((element) => [...element.classList]);
    for (const { name, gauge } of gauges) {
      await expect.poll(() => classes(gauge), { timeout: 15_000, message: `${name}'s gauge live` }).toContain('stagelink-live-online');
    }

    await simControl(demo.sim.mediaServer.url, { action: 'refuseUpgrades', on: true });
    try {
      await simControl(demo.sim.mediaServer.url, { action: 'dropSockets' });
      for (const { name, gauge } of gauges) {
        await expect.poll(() => classes(gauge), { timeout: 15_000, message: `${name}'s gauge greyed out` }).toContain('stagelink-live-offline');
        await expect.poll(() => gauge.innerText(), { timeout: 15_000, message: `${name}'s gauge says so` }).toContain(`${name} · OFFLINE`);
        // Greyed, as the page's style says: an operator must not read it as a live frame rate.
        expect(await gauge.evaluate((element) => getComputedStyle(element).filter)).toContain('grayscale');
      }
      await expect.poll(() => looks(clockTiles[0]!), { timeout: 15_000, message: 'the transport line' }).toSatisfy(greyedOut('offline', /^OFFLINE$/));
      await expect.poll(() => looks(clockTiles[1]!), { timeout: 15_000, message: 'the countdown' }).toSatisfy(greyedOut('offline', /^OFFLINE$/));
      await saveScreenshot(page, 'dashboard-offline');
    } finally {
      await simControl(demo.sim.mediaServer.url, { action: 'refuseUpgrades', on: false });
    }
    for (const { name, gauge } of gauges) {
      await expect.poll(() => classes(gauge), { timeout: 60_000, message: `${name}'s gauge live again` }).toContain('stagelink-live-online');
      await expect.poll(() => gauge.innerText(), { timeout: 15_000 }).not.toContain('OFFLINE');
    }
    for (const tile of clockTiles) await expect.poll(() => looks(tile), { timeout: 30_000 }).toSatisfy(liveClock);
  });

  it('fails Actor 1 over only once its dialog is confirmed, and restores it the same way', async () => {
    const failOver = page.getByRole('button', { name: 'Fail over Actor 1' });
    const dialog = page.getByText('Fail Actor 1 over?');
    await failOver.click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await saveScreenshot(page, 'dashboard-failover-dialog');
    expect(await standingInForActor1()).toEqual([]);

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // A cancel travels through the flow like a confirmation would: give it the time a confirmed one takes to land.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await standingInForActor1()).toEqual([]);

    await failOver.click();
    await page.getByRole('button', { name: 'Fail over', exact: true }).click();
    await expect.poll(standingInForActor1).toHaveLength(1);
    await expect.poll(() => shownText(widget(page, 'ui-text', 'Failover', 'Last action'))).toBe('Actor 1 failed over');

    await page.getByRole('button', { name: 'Restore Actor 1' }).click();
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect.poll(standingInForActor1).toEqual([]);
    await expect.poll(() => shownText(widget(page, 'ui-text', 'Failover', 'Last action'))).toBe('Actor 1 restored');
  });
});
