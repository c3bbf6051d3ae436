import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../src/render/contrast.js';
import { cueFace } from '../../src/render/cue-face.js';
import { noLinkFace, problemFace, setupFace, waitingFace } from '../../src/render/faces.js';
import { fitLine, LINE_WIDTH, MIN_TEXT_SIZE, splitInTwo } from '../../src/render/fit-text.js';
import { fpsFace } from '../../src/render/fps-face.js';
import { healthFace } from '../../src/render/health-face.js';
import { inkOn, palette } from '../../src/render/palette.js';
import { svgDataUrl } from '../../src/render/svg.js';
import { textWidth } from '../../src/render/text-width.js';
import { readFace } from './face-reading.js';

const background = (svg: string): string => readFace(svg).background;

const everyFace = [
  noLinkFace('LOCAL'),
  setupFace('FPS'),
  waitingFace('SESSION', 'connecting'),
  problemFace('actor-9'),
  fpsFace({ machine: 'LOCAL', fps: 59.94, alert: 'ok' }),
  healthFace({ scope: 'SESSION', severity: 'warning' }),
  cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: 'main', activity: 'playing' }),
];

describe('key faces', () => {
  it.each(everyFace.map((svg, index) => [index, svg]))('face %i is a 144x144 SVG with one font family', (_index, svg) => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="144" height="144" viewBox="0 0 144 144">/);
    const families = new Set([...svg.matchAll(/font-family="([^"]+)"/g)].map((match) => match[1]));
    expect([...families]).toEqual(['Arial']);
  });

  it('shows our lost link as NO LINK on grey, the same on every kind of key', () => {
    expect(background(noLinkFace('LOCAL'))).toBe(palette.noLink);
    expect(background(cueFace({ command: 'PLAY', name: 'main', transport: 'main', activity: 'no-link' }))).toBe(palette.noLink);
  });

  it('colours FPS by the alert level and stays neutral without a target', () => {
    expect(background(fpsFace({ machine: 'LOCAL', fps: 60, alert: 'ok' }))).toBe(palette.ok);
    expect(background(fpsFace({ machine: 'LOCAL', fps: 53, alert: 'warning' }))).toBe(palette.warning);
    expect(background(fpsFace({ machine: 'LOCAL', fps: 30, alert: 'error' }))).toBe(palette.error);
    expect(background(fpsFace({ machine: 'LOCAL', fps: 30, alert: 'none' }))).toBe(palette.neutral);
  });

  it('colours health by severity, ready as OK', () => {
    expect(background(healthFace({ scope: 'SESSION', severity: 'error' }))).toBe(palette.error);
    expect(background(healthFace({ scope: 'media-1', severity: 'ready' }))).toBe(palette.ok);
    expect(background(healthFace({ scope: 'media-1', severity: 'busy' }))).toBe(palette.busy);
    expect(background(healthFace({ scope: 'media-1', severity: 'offline' }))).toBe(palette.machineOffline);
  });

  it('marks a playing transport green', () => {
    expect(background(cueFace({ command: 'PLAY', name: 'main', transport: 'main', activity: 'playing' }))).toBe(palette.playing);
    expect(background(cueFace({ command: 'PLAY', name: 'main', transport: 'main', activity: 'stopped' }))).toBe(palette.neutral);
  });

  it('leaves the top of a cue key to a title the operator gave it, keeping the state word and colour', () => {
    const view = { command: 'PLAY', name: 'Intro', transport: 'main', activity: 'playing' as const };
    const plain = readFace(cueFace(view));
    const titled = readFace(cueFace({ ...view, titled: true }));
    expect(plain.shapes).not.toBe('');
    expect(titled.shapes).toBe('');
    expect(titled.texts.map((text) => text.content)).toEqual(plain.texts.map((text) => text.content));
    expect(titled.background).toBe(palette.playing);
  });

  it('encodes frames as SVG data URLs', () => {
    const url = svgDataUrl('<svg/>');
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1] ?? '', 'base64').toString()).toBe('<svg/>');
  });
});

describe('colours', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // White on the amber the faces used before 72 px keys: too faint.
    expect(contrastRatio('#ffffff', '#e3a008')).toBeCloseTo(2.3, 1);
  });

  it('writes black on the light colours and white on the dark ones', () => {
    expect(inkOn(palette.warning)).toBe(palette.ink);
    expect(inkOn(palette.ok)).toBe(palette.ink);
    expect(inkOn(palette.neutral)).toBe(palette.text);
    expect(inkOn(palette.noLink)).toBe(palette.text);
  });
});

describe('text measuring and fitting', () => {
  it('measures Arial: capitals wider than lower case, bold wider than regular, other scripts wider than any Arial glyph', () => {
    expect(textWidth('MAIN', 20)).toBeGreaterThan(textWidth('main', 20));
    expect(textWidth('main', 20, true)).toBeGreaterThan(textWidth('main', 20));
    expect(textWidth('WWW', 10)).toBeCloseTo(28.32, 2);
    expect(textWidth('\u30e1\u30a4\u30f3', 20)).toBeGreaterThan(textWidth('@@@', 20));
  });

  it('keeps text that fits at its size', () => {
    expect(fitLine('Intro', 24)).toEqual({ text: 'Intro', size: 24, bold: false });
  });

  it('shrinks text before it shortens it, never below the smallest size', () => {
    const shrunk = fitLine('WARNING', 30, true);
    expect(shrunk.text).toBe('WARNING');
    expect(shrunk.size).toBeLessThan(30);
    expect(shrunk.size).toBeGreaterThanOrEqual(MIN_TEXT_SIZE);
    expect(textWidth(shrunk.text, shrunk.size, true)).toBeLessThanOrEqual(LINE_WIDTH);
  });

  it('splits a name over two lines as evenly as it can', () => {
    expect(splitInTwo('Intro: Section 2', true)).toEqual(['Intro:', 'Section 2']);
    expect(splitInTwo('Supercalifragilisticexpialidocious', true)).toBeUndefined();
  });

  it('turns bold text regular at the smallest size before it shortens it', () => {
    expect(fitLine('Intro: Section 2', 24, true)).toEqual({ text: 'Intro: Section 2', size: MIN_TEXT_SIZE, bold: false });
  });

  // Names come from settings and servers: a million characters must cost a key no more than a long name does.
  it.each(['x', '\u00e9', '\ud83c\udfad', ' ab'])('shortens a name of a million %j at once, keeping both ends', (unit) => {
    const name = `Start-${unit.repeat(1_000_000)}-07`;
    const started = performance.now();
    const fitted = fitLine(name, 22, true);
    const halves = splitInTwo(name, true);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(fitted.size).toBe(MIN_TEXT_SIZE);
    expect(fitted.text).toMatch(/^Start.*\u2026.*-07$/u);
    expect(fitted.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(textWidth(fitted.text, fitted.size)).toBeLessThanOrEqual(LINE_WIDTH);
    if (halves) expect(textWidth(halves[0], MIN_TEXT_SIZE, true)).toBeLessThanOrEqual(LINE_WIDTH);
  });

  it('shortens a name just longer than a line as it shortens a short one', () => {
    const fitted = fitLine('ACTOR-understudy-rack-position-07', 22);
    expect(fitted.text).toMatch(/^ACTOR.*\u2026.*-07$/);
    expect(textWidth(fitted.text, fitted.size)).toBeGreaterThan(LINE_WIDTH - textWidth('W', MIN_TEXT_SIZE));
  });

  it('shortens a name that cannot fit in its middle, to the width of a key', () => {
    const fitted = fitLine('media-server-rack-2-understudy-07', 22);
    expect(fitted.size).toBe(MIN_TEXT_SIZE);
    expect(fitted.text).toMatch(/^media-.*\u2026.*-07$/);
    expect(textWidth(fitted.text, fitted.size)).toBeLessThanOrEqual(LINE_WIDTH);
  });
});
