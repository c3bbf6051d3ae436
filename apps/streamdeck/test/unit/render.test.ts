import { describe, expect, it } from 'vitest';
import { cueFace } from '../../src/render/cue-face.js';
import { offlineFace, problemFace, setupFace, waitingFace } from '../../src/render/faces.js';
import { fpsFace } from '../../src/render/fps-face.js';
import { healthFace } from '../../src/render/health-face.js';
import { palette } from '../../src/render/palette.js';
import { fitText, svgDataUrl, wrapText } from '../../src/render/svg.js';

const background = (svg: string): string | undefined => /<rect x="0" y="0" width="144" height="144" fill="([^"]+)"/.exec(svg)?.[1];
const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1] ?? '');

const everyFace = [
  offlineFace('FPS LOCAL', '10.0.0.5'),
  setupFace('FPS', 'Set the media server address in the inspector.'),
  waitingFace('HEALTH', 'connecting'),
  problemFace('FPS actor-9', 'No FPS from this machine: check the name.'),
  fpsFace({ machine: 'LOCAL', fps: 59.94, alert: 'ok', target: 60 }),
  healthFace({ scope: 'SESSION', severity: 'warning' }),
  cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: 'main', activity: 'playing' }),
];

describe('key faces', () => {
  it.each(everyFace.map((svg, index) => [index, svg]))('face %i is a 144x144 SVG with one font family', (_index, svg) => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="144" height="144" viewBox="0 0 144 144">/);
    const families = new Set([...svg.matchAll(/font-family="([^"]+)"/g)].map((match) => match[1]));
    expect([...families]).toEqual(['Arial']);
  });

  it('escapes names that look like markup', () => {
    const svg = cueFace({ command: 'GO TO TRACK', name: '<b>A & "B"</b>', transport: 'main', activity: 'stopped' });
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&#60;b&#62;A &#38;');
  });

  it('shortens long names with an ellipsis instead of running off the key', () => {
    const name = 'A very long track name that no key could ever hold on one line';
    const svg = cueFace({ command: 'GO TO TRACK', name, transport: 'main', activity: 'stopped' });
    const lines = texts(svg);
    expect(lines.join(' ')).toContain('\u2026');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(14);
  });

  it('never shows a number on the offline face', () => {
    const svg = offlineFace('FPS LOCAL', 'media-1');
    expect(texts(svg)).toContain('OFFLINE');
    expect(background(svg)).toBe(palette.noLink);
    expect(texts(waitingFace('FPS', 'no data')).join(' ')).not.toMatch(/\d/);
  });

  it('colours FPS by the alert level and stays neutral without a target', () => {
    expect(background(fpsFace({ machine: 'LOCAL', fps: 60, alert: 'ok', target: 60 }))).toBe(palette.ok);
    expect(background(fpsFace({ machine: 'LOCAL', fps: 53, alert: 'warning', target: 60 }))).toBe(palette.warning);
    expect(background(fpsFace({ machine: 'LOCAL', fps: 30, alert: 'error', target: 60 }))).toBe(palette.error);
    expect(background(fpsFace({ machine: 'LOCAL', fps: 30, alert: 'none' }))).toBe(palette.neutral);
    expect(texts(fpsFace({ machine: 'LOCAL', fps: 59.94, alert: 'ok', target: 60 }))).toEqual(['LOCAL', '59.9', 'FPS / 60']);
  });

  it('shows the severity as a word on its colour, ready as OK', () => {
    expect(texts(healthFace({ scope: 'SESSION', severity: 'error' }))).toContain('ERROR');
    expect(background(healthFace({ scope: 'SESSION', severity: 'error' }))).toBe(palette.error);
    expect(texts(healthFace({ scope: 'media-1', severity: 'ready' }))).toContain('OK');
    expect(background(healthFace({ scope: 'media-1', severity: 'ready' }))).toBe(palette.ok);
    expect(background(healthFace({ scope: 'media-1', severity: 'offline' }))).toBe(palette.machineOffline);
  });

  it('marks a playing transport green, and a lost link on the cue key', () => {
    const playing = cueFace({ command: 'PLAY', name: 'main', transport: 'main', activity: 'playing' });
    expect(background(playing)).toBe(palette.playing);
    expect(texts(playing).join(' ')).toContain('PLAYING');
    const noLink = cueFace({ command: 'PLAY', name: 'main', transport: 'main', activity: 'no-link' });
    expect(background(noLink)).toBe(palette.neutral);
    expect(texts(noLink).join(' ')).toContain('NO LINK');
  });

  it('never cuts off the state word under a long transport name', () => {
    const plain = cueFace({ command: 'PLAY', name: 'side screens', transport: 'side screens', activity: 'playing' });
    expect(texts(plain)).toContain('PLAYING');
    const cue = cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: 'upstage projection left', activity: 'no-link' });
    expect(texts(cue)).toContain('NO LINK');
    const short = cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: 'main', activity: 'playing' });
    expect(texts(short)).toContain('main \u00b7 PLAYING');
    // Without a state word the transport takes the line, shortened if it must be.
    expect(texts(cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: 'upstage projection left', activity: 'stopped' })).at(-1)).toMatch(/^upstage/);
  });

  it('encodes frames as SVG data URLs', () => {
    const url = svgDataUrl('<svg/>');
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1] ?? '', 'base64').toString()).toBe('<svg/>');
  });
});

describe('text fitting', () => {
  it('keeps short text and wraps at spaces', () => {
    expect(fitText('Intro', 22)).toBe('Intro');
    expect(wrapText('Lobby ambience', 22, 2)).toEqual(['Lobby', 'ambience']);
    expect(wrapText('one two three four five six seven', 22, 2)).toHaveLength(2);
  });
});
