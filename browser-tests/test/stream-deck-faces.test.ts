/**
 * Every face the Stream Deck plugin draws, in Chromium: the key faces come from the plugin's own renderers
 * (apps/streamdeck/src/render), each shown as the SVG data URL the plugin hands to the app, at the 144 px of its
 * canvas and at the 72 px of a standard key; the Level and Show clock dials' touch strips show the plugin's
 * feedback placed by the items of layouts/level.json and layouts/clock.json. The page is saved as
 * screenshots/deck-faces.png for the plugin's README.
 */
import { PLUGIN_DIR } from '@stagelink/streamdeck/testing';
import {
  clockFace,
  clockFeedback,
  cueFace,
  fpsFace,
  healthFace,
  KEY_SIZE,
  largeAnswersFailFace,
  lateCueFace,
  levelFeedback,
  noLinkFace,
  problemFace,
  setupFace,
  staleFace,
  svgDataUrl,
  TEXT_MARGIN,
  waitingFace,
  type ClockView,
  type CueView,
  type LevelFeedback,
  type LevelView,
} from '@stagelink/streamdeck/render';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { saveScreenshot } from './support/screenshots.js';

interface Face {
  caption: string;
  svg: string;
}

interface FaceSection {
  title: string;
  /** Each row as it sits on the page: the faces that belong together side by side. */
  rows: Face[][];
}

const TRANSPORT = 'main';
const MACHINE = 'ACTOR01';

const cue = (caption: string, view: Partial<CueView>): Face => ({
  caption,
  svg: cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: TRANSPORT, activity: 'stopped', ...view }),
});

const CUE_FACES: Face[][] = [
  [
    cue('idle: a track', {}),
    cue('idle: a plain command', { command: 'PLAY', name: TRANSPORT }),
    cue('PLAYING', { activity: 'playing' }),
    cue('SENDING\u2026 (cue slow)', { sending: true }),
    cue('NOT FOUND (transport)', { activity: 'missing' }),
  ],
  [
    cue('NO LINK (server down)', { activity: 'no-link' }),
    cue('ENGAGED', { command: 'ENGAGE', name: TRANSPORT, engaged: true }),
    cue('DISENGAGED', { command: 'ENGAGE', name: TRANSPORT, engaged: false }),
    cue('a long name', { name: 'Overture and Opening Chorus' }),
    cue('a long name, PLAYING', { name: 'Overture and Opening Chorus', activity: 'playing' }),
  ],
  [
    cue('MTU? (large answers fail)', { activity: 'large-answers-fail' }),
    { caption: 'LANDED LATE (cue answered late)', svg: lateCueFace('landed') },
    { caption: 'OUTCOME UNKNOWN (cue answered late)', svg: lateCueFace('unknown') },
  ],
];

const FPS_FACES: Face[][] = [
  [
    { caption: 'on target (ok)', svg: fpsFace({ machine: 'LOCAL', fps: 59.9, alert: 'ok' }) },
    { caption: '5 to 9 under (warning)', svg: fpsFace({ machine: 'LOCAL', fps: 53.2, alert: 'warning' }) },
    { caption: '10 or more under (error)', svg: fpsFace({ machine: 'LOCAL', fps: 41.7, alert: 'error' }) },
    { caption: 'no target set', svg: fpsFace({ machine: 'LOCAL', fps: 60, alert: 'none' }) },
    { caption: 'another machine', svg: fpsFace({ machine: MACHINE, fps: 120, alert: 'ok' }) },
  ],
];

// `ready` draws the same face as `ok`, so it has no picture of its own.
const SEVERITIES = ['ok', 'busy', 'warning', 'error', 'offline'] as const;

const HEALTH_FACES: Face[][] = [
  ...['SESSION', MACHINE].map((scope) =>
    SEVERITIES.map((severity) => ({ caption: `${scope === 'SESSION' ? 'session' : 'machine'}: ${severity.toUpperCase()}`, svg: healthFace({ scope, severity }) })),
  ),
  // A hardware fault from the machine's SMC, above the session's own word.
  [
    { caption: 'hardware: FAN', svg: healthFace({ scope: MACHINE, severity: 'ok', hardware: { word: 'FAN', severity: 'error', machine: MACHINE } }) },
    { caption: 'hardware: HOT', svg: healthFace({ scope: 'SESSION', severity: 'ok', hardware: { word: 'HOT', severity: 'warning', machine: MACHINE } }) },
    { caption: 'hardware: POWER', svg: healthFace({ scope: MACHINE, severity: 'warning', hardware: { word: 'POWER', severity: 'error', machine: MACHINE } }) },
    { caption: 'hardware: OUTPUT', svg: healthFace({ scope: MACHINE, severity: 'error', hardware: { word: 'OUTPUT', severity: 'warning', machine: MACHINE } }) },
    { caption: 'hardware: SMC OFFLINE', svg: healthFace({ scope: MACHINE, severity: 'ok', hardware: { word: 'OFFLINE', severity: 'offline', machine: MACHINE } }) },
  ],
];

const SHARED_FACES: Face[][] = [
  [
    { caption: 'NO LINK (server down)', svg: noLinkFace('SESSION') },
    { caption: 'SET UP (settings)', svg: setupFace('FPS') },
    { caption: 'PROBLEM (bad answer)', svg: problemFace(MACHINE) },
    { caption: 'STALE (values stopped)', svg: staleFace('LOCAL') },
    { caption: 'MTU? (large answers fail)', svg: largeAnswersFailFace('SESSION') },
  ],
  [
    { caption: 'CONNECTING', svg: waitingFace('LOCAL', 'connecting') },
    { caption: 'NO DATA (no value yet)', svg: waitingFace('LOCAL', 'no data') },
    { caption: 'LOADING (no settings yet)', svg: waitingFace('HEALTH', 'loading') },
  ],
];

type ClockCount = Extract<ClockView, { kind: 'clock' }>;
const counting = (view: Partial<ClockCount>): ClockCount => ({
  kind: 'clock',
  transport: TRANSPORT,
  digits: '1:23',
  label: 'SECTION 2',
  alert: 'none',
  lit: false,
  progress: 0.3,
  ...view,
});

const CLOCK_VIEWS: { caption: string; view: ClockView }[][] = [
  [
    { caption: 'section remaining', view: counting({}) },
    { caption: 'under 10 s: orange', view: counting({ digits: '0:08', alert: 'warn', lit: true, progress: 0.93 }) },
    { caption: 'under 5 s: flashing (lit)', view: counting({ digits: '0:04', alert: 'flash', lit: true, progress: 0.97 }) },
    { caption: 'under 5 s: flashing (dark)', view: counting({ digits: '0:04', alert: 'flash', lit: false, progress: 0.97 }) },
    { caption: 'next cue in', view: counting({ digits: '2:05', label: 'Five minute call', progress: 0.4 }) },
  ],
  [
    { caption: 'playhead', view: counting({ digits: '1:02:03', label: 'Preshow', progress: 0.6 }) },
    { caption: 'STALE (playhead stuck)', view: { kind: 'stale', transport: TRANSPORT } },
    { caption: 'NO LINK (stream down)', view: { kind: 'noLink', transport: TRANSPORT } },
    { caption: 'PROBLEM (no such transport)', view: { kind: 'problem', transport: 'backstage' } },
    { caption: 'SET UP', view: { kind: 'setup', transport: undefined } },
  ],
];

const CLOCK_FACES: Face[][] = CLOCK_VIEWS.map((row) => row.map(({ caption, view }) => ({ caption, svg: clockFace(view) })));

const SECTIONS: FaceSection[] = [
  { title: 'Transport cue key', rows: CUE_FACES },
  { title: 'FPS key', rows: FPS_FACES },
  { title: 'Health key: the session, then one machine', rows: HEALTH_FACES },
  { title: 'Show clock key', rows: CLOCK_FACES },
  { title: 'Every key: no link, not set up, a problem, a stale value, large answers failing; then waiting for a value', rows: SHARED_FACES },
];

const [cueRow = []] = CUE_FACES;
const [fpsRow = []] = FPS_FACES;
const [sessionRow = [], machineRow = []] = HEALTH_FACES;
const [sharedRow = []] = SHARED_FACES;
const [clockRow = []] = CLOCK_FACES;

/** One of each kind, at the size a standard key shows them. */
const AT_KEY_SIZE: Face[] = [cueRow[0], cueRow[2], cueRow[4], fpsRow[0], sessionRow[0], machineRow[3], clockRow[0], clockRow[1], sharedRow[0], sharedRow[1]]
  .filter((face): face is Face => face !== undefined)
  .map((face) => ({ ...face, caption: face.caption.replace(/ \(.*\)$/, '').replace(/^idle: .*/, 'idle').replace(/^(session|machine): /, '') }));

/** A dial's part of the Stream Deck +'s touch strip: four dials share an 800 x 100 strip. */
const STRIP = { width: 200, height: 100 };

const DIALS: { caption: string; view: LevelView }[][] = [
  [
    { caption: 'volume', view: { kind: 'value', property: 'volume', transport: TRANSPORT, value: 0.83, sending: false } },
    { caption: 'brightness after a fine turn', view: { kind: 'value', property: 'brightness', transport: TRANSPORT, value: 0.834, sending: false } },
    { caption: 'volume at 0: MUTED', view: { kind: 'value', property: 'volume', transport: TRANSPORT, value: 0, sending: false } },
    { caption: 'brightness at 0: BLACKOUT', view: { kind: 'value', property: 'brightness', transport: TRANSPORT, value: 0, sending: false } },
  ],
  [
    { caption: 'SENDING (a slow write)', view: { kind: 'value', property: 'volume', transport: TRANSPORT, value: 0.42, sending: true } },
    { caption: 'waiting for the first value', view: { kind: 'waiting', property: 'volume', transport: TRANSPORT } },
    { caption: 'a long transport name', view: { kind: 'value', property: 'volume', transport: 'Main stage projection left', value: 1, sending: false } },
    { caption: 'NO LINK', view: { kind: 'noLink', property: 'brightness', transport: TRANSPORT } },
  ],
  [
    { caption: 'MTU? (large answers fail)', view: { kind: 'largeAnswersFail', property: 'volume', transport: TRANSPORT } },
    { caption: 'NOT FOUND', view: { kind: 'missing', property: 'volume', transport: 'backstage' } },
    { caption: 'SET UP', view: { kind: 'setup', transport: TRANSPORT } },
    { caption: 'SET UP, no transport chosen', view: { kind: 'setup', transport: undefined } },
  ],
];

// ---- the touch strip as layouts/level.json places the feedback ----------------------------------------------

interface LayoutItem {
  key: string;
  type: 'text' | 'bar';
  rect: [x: number, y: number, width: number, height: number];
  font?: { size: number; weight: number };
  alignment?: 'left' | 'center' | 'right';
  'text-overflow'?: 'clip' | 'ellipsis' | 'fade';
  color?: string;
  background?: string;
  value?: number | string;
  opacity?: number;
  range?: { min: number; max: number };
  border_w?: number;
  bar_bg_c?: string;
  bar_border_c?: string;
  bar_fill_c?: string;
}

interface Layout {
  items: LayoutItem[];
}

const layoutOf = (name: string): Layout => JSON.parse(readFileSync(join(PLUGIN_DIR, 'layouts', `${name}.json`), 'utf8')) as Layout;
const LEVEL_LAYOUT = layoutOf('level');
const CLOCK_LAYOUT = layoutOf('clock');

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function box([x, y, width, height]: LayoutItem['rect']): string {
  return `left:${x}px;top:${y}px;width:${width}px;height:${height}px;`;
}

/** One item with the feedback for its key laid over the layout's own values, as the app applies `setFeedback`. */
function stripItem(item: LayoutItem, feedback: object): string {
  const given = (feedback as unknown as Record<string, unknown>)[item.key];
  const shown: LayoutItem = { ...item, ...(typeof given === 'string' ? { value: given } : (given as Partial<LayoutItem> | undefined)) };
  const opacity = `opacity:${shown.opacity ?? 1};`;
  if (shown.type === 'bar') {
    const range = shown.range ?? { min: 0, max: 100 };
    const filled = ((Number(shown.value ?? 0) - range.min) / (range.max - range.min)) * 100;
    const frame = `background:${shown.bar_bg_c};border:${shown.border_w ?? 0}px solid ${shown.bar_border_c};`;
    return (
      `<div class="item bar" data-key="${item.key}" style="${box(shown.rect)}${frame}${opacity}">` +
      `<div class="fill" style="width:${filled}%;background:${shown.bar_fill_c};"></div></div>`
    );
  }
  const font = shown.font ?? { size: 16, weight: 400 };
  const overflow = shown['text-overflow'] === 'ellipsis' ? 'ellipsis' : 'clip';
  const style =
    `${box(shown.rect)}line-height:${shown.rect[3]}px;font-size:${font.size}px;font-weight:${font.weight};` +
    `text-align:${shown.alignment ?? 'center'};text-overflow:${overflow};color:${shown.color};${shown.background ? `background:${shown.background};` : ''}${opacity}`;
  return `<div class="item text" data-key="${item.key}" data-overflow="${overflow}" style="${style}">${escapeHtml(String(shown.value ?? ''))}</div>`;
}

function dialFigure(caption: string, feedback: LevelFeedback | object, layout: Layout = LEVEL_LAYOUT): string {
  const unplaced = Object.keys(feedback).filter((key) => !layout.items.some((item) => item.key === key));
  if (unplaced.length > 0) throw new Error(`The layout has no item for the feedback keys ${unplaced.join(', ')}`);
  const items = layout.items.map((item) => stripItem(item, feedback)).join('');
  return `<figure class="dial"><div class="segment">${items}</div><figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

// ---- the page ------------------------------------------------------------------------------------------------

function keyFigure(face: Face, size: number): string {
  const caption = escapeHtml(face.caption);
  return (
    `<figure class="face" style="width:${size}px"><img src="${svgDataUrl(face.svg)}" width="${size}" height="${size}" ` +
    `style="border-radius:${size / 9}px" alt="${caption}"><figcaption>${caption}</figcaption></figure>`
  );
}

function facesPage(): string {
  const style = `
    body { margin: 0; background: #ffffff; font-family: Arial, 'Liberation Sans', sans-serif; }
    .sheet { display: inline-block; width: 836px; padding: 20px 24px 24px; margin: 8px; background: #151515; border-radius: 20px; color: #e8ebee; }
    h2 { font-size: 15px; font-weight: 700; margin: 18px 0 10px; color: #ffffff; }
    h2:first-child { margin-top: 0; }
    h2 small { font-weight: 400; color: #a7b0b8; }
    .row { display: flex; gap: 24px; margin-bottom: 10px; }
    .row.small { gap: 12px; }
    figure { margin: 0; }
    .face img { display: block; }
    figcaption { margin-top: 5px; font-size: 12px; line-height: 15px; color: #c9cfd4; text-align: center; }
    .small figcaption { font-size: 10px; line-height: 12px; }
    .dial { width: ${STRIP.width}px; }
    .segment { position: relative; width: ${STRIP.width}px; height: ${STRIP.height}px; background: #000000; border-radius: 6px; overflow: hidden; }
    .item { position: absolute; box-sizing: border-box; }
    .text { white-space: nowrap; overflow: hidden; }
    .fill { height: 100%; }`;
  const sections = SECTIONS.map(
    ({ title, rows }) => `<h2>${escapeHtml(title)}</h2>${rows.map((row) => `<div class="row">${row.map((face) => keyFigure(face, KEY_SIZE)).join('')}</div>`).join('')}`,
  ).join('');
  const small = `<h2>At the size of a key <small>(72 px, as a standard Stream Deck key shows them)</small></h2><div class="row small">${AT_KEY_SIZE.map((face) => keyFigure(face, KEY_SIZE / 2)).join('')}</div>`;
  const dials =
    `<h2>Level dial: its part of the touch strip <small>(200 x 100 px, the plugin's feedback placed as layouts/level.json says)</small></h2>` +
    DIALS.map((row) => `<div class="row small">${row.map(({ caption, view }) => dialFigure(caption, levelFeedback(view))).join('')}</div>`).join('') +
    `<h2>Show clock dial: its part of the touch strip <small>(as layouts/clock.json says)</small></h2>` +
    CLOCK_VIEWS.map((row) => `<div class="row small">${row.slice(0, 4).map(({ caption, view }) => dialFigure(caption, clockFeedback(view), CLOCK_LAYOUT)).join('')}</div>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body><div class="sheet">${sections}${small}${dials}</div></body></html>`;
}

interface Overflow {
  face: string;
  text: string;
  left: number;
  right: number;
}

/** Draws each face inline in the page and returns every line of text that reaches into the key's margin. */
async function keyTextOverflows(page: Page, faces: Face[], margin: number): Promise<Overflow[]> {
  return page.evaluate(
    ({ all, size, edge }) => {
      const found: Overflow[] = [];
      const host = document.createElement('div');
      host.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden';
      document.body.append(host);
      for (const face of all) {
        host.innerHTML = face.svg;
        for (const line of host.querySelectorAll('text')) {
          const { x, width } = line.getBBox();
          // Half a pixel for rounding: the face's widths come from Arial's metrics, the browser draws Liberation Sans.
          if (x < edge - 0.5 || x + width > size - edge + 0.5) found.push({ face: face.caption, text: line.textContent ?? '', left: x, right: x + width });
        }
      }
      host.remove();
      return found;
    },
    { all: faces, size: KEY_SIZE, edge: margin },
  );
}

describe('the Stream Deck key faces', () => {
  let browser: Browser;
  let page: Page | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await page?.close();
    await browser?.close();
  });

  it('draws every face of every key and the dial strip (the README picture)', async () => {
    const pageErrors: string[] = [];
    page = await browser.newPage({ viewport: { width: 880, height: 2600 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setContent(facesPage());

    const images = page.locator('img');
    const faceCount = SECTIONS.flatMap((section) => section.rows.flat()).length + AT_KEY_SIZE.length;
    await expect.poll(() => images.count()).toBe(faceCount);
    const unloaded = await images.evaluateAll(async (elements) => {
      const all = elements as HTMLImageElement[];
      await Promise.allSettled(all.map((image) => image.decode()));
      return all.filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.alt);
    });
    expect(unloaded, 'faces that did not load').toEqual([]);

    const allFaces = SECTIONS.flatMap((section) => section.rows.flat());
    expect(await keyTextOverflows(page, allFaces, TEXT_MARGIN), 'text beyond the margin of a key').toEqual([]);

    // Only the transport's name may be cut short (with an ellipsis, as the layout says); the value and state fit.
    const clipped = await page.locator('.text[data-overflow="clip"]').evaluateAll((elements) =>
      elements.filter((element) => element.scrollWidth > element.clientWidth).map((element) => element.textContent),
    );
    expect(clipped, 'strip text cut off').toEqual([]);
    expect(await page.locator('.segment').count()).toBe(DIALS.flat().length + CLOCK_VIEWS.flatMap((row) => row.slice(0, 4)).length);

    await saveScreenshot(page.locator('.sheet'), 'deck-faces');
    expect(pageErrors, 'script errors in the page').toEqual([]);
  });
});
