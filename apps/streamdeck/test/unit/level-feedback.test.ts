import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelFeedback, STRIP_COLOURS, type LevelView } from '../../src/render/level-feedback.js';
import { PLUGIN_DIR } from '../harness/fake-stream-deck.js';

interface LayoutItem {
  key: string;
  type: string;
  rect: [number, number, number, number];
  font?: { size: number };
}

const layout = JSON.parse(readFileSync(join(PLUGIN_DIR, 'layouts', 'level.json'), 'utf8')) as { items: LayoutItem[] };
const item = (key: string): LayoutItem => {
  const found = layout.items.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`layouts/level.json has no item ${key}`);
  return found;
};

/** Advance widths of Arial Bold in thousandths of the font size, for every character the strip's words use. */
const ARIAL_BOLD: Record<string, number> = {
  ...Object.fromEntries([...'0123456789'].map((digit) => [digit, 556])),
  '%': 889, '.': 278, '-': 333, ' ': 278, '?': 611,
  A: 722, B: 722, C: 722, D: 722, E: 667, F: 611, G: 778, H: 722, I: 278, K: 722, L: 611, M: 833, N: 722,
  O: 778, P: 667, R: 722, S: 667, T: 611, U: 722, V: 667,
};

function widthOf(text: string, size: number): number {
  return [...text].reduce((sum, char) => {
    const advance = ARIAL_BOLD[char];
    if (advance === undefined) throw new Error(`no width for "${char}" in the table`);
    return sum + (advance * size) / 1000;
  }, 0);
}

/** WCAG contrast of a colour on the strip's black background. */
function contrastOnBlack(hex: string): number {
  const channel = (offset: number): number => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (luminance + 0.05) / 0.05;
}

const everyKind: LevelView[] = [
  { kind: 'value', property: 'volume', transport: 'lobby', value: 0.65, sending: false },
  { kind: 'value', property: 'volume', transport: 'lobby', value: 0, sending: false },
  { kind: 'value', property: 'brightness', transport: 'main', value: 0, sending: false },
  { kind: 'value', property: 'brightness', transport: 'main', value: 1, sending: false },
  { kind: 'value', property: 'volume', transport: 'lobby', value: 0.4, sending: true },
  { kind: 'noLink', property: 'brightness', transport: 'main' },
  { kind: 'largeAnswersFail', property: 'volume', transport: 'lobby' },
  { kind: 'waiting', property: 'volume', transport: 'lobby' },
  { kind: 'missing', property: 'volume', transport: 'lobby' },
  { kind: 'setup', transport: undefined },
];

describe('touch strip feedback', () => {
  it('fills exactly the items of the layout, for every kind of view', () => {
    const keys = layout.items.map((candidate) => candidate.key).sort();
    for (const view of everyKind) expect(Object.keys(levelFeedback(view)).sort(), view.kind).toEqual(keys);
  });

  it('shows the transport, the level as a percentage and the bar', () => {
    expect(levelFeedback({ kind: 'value', property: 'volume', transport: 'lobby', value: 0.65, sending: false })).toEqual({
      transport: 'lobby',
      value: '65%',
      state: { value: 'VOLUME', color: STRIP_COLOURS.quiet },
      level: { value: 65, opacity: 1 },
    });
  });

  it('shows a fine turn to a tenth, and a 32-bit float as the value it stands for', () => {
    expect(levelFeedback({ kind: 'value', property: 'volume', transport: 'lobby', value: 0.834, sending: false }).value).toBe('83.4%');
    expect(levelFeedback({ kind: 'value', property: 'volume', transport: 'lobby', value: 0.8299999833106995, sending: false }).value).toBe('83%');
  });

  it('gives each state its own word', () => {
    const words = everyKind.map((view) => levelFeedback(view).state.value);
    expect(words).toEqual(['VOLUME', 'MUTED', 'BLACKOUT', 'BRIGHTNESS', 'SENDING', 'NO LINK', 'MTU?', 'VOLUME', 'NOT FOUND', 'SET UP']);
  });

  it('shows no value as live while the link is down, and dims the bar', () => {
    const feedback = levelFeedback({ kind: 'noLink', property: 'brightness', transport: 'main' });
    expect(feedback.value).toBe('--');
    expect(feedback.level.opacity).toBeLessThan(1);
  });

  it('says MTU?, not NO LINK, when the transport list stops part way, and shows no value', () => {
    const feedback = levelFeedback({ kind: 'largeAnswersFail', property: 'volume', transport: 'main' });
    expect(feedback.state).toEqual({ value: 'MTU?', color: STRIP_COLOURS.problem });
    expect(feedback.value).toBe('--');
    expect(feedback.level.opacity).toBeLessThan(1);
  });

  it('fits every value and state word in its slot at the layout font size', () => {
    const value = item('value');
    const state = item('state');
    for (let tenths = 0; tenths <= 1000; tenths++) {
      const text = levelFeedback({ kind: 'value', property: 'brightness', transport: 'main', value: tenths / 1000, sending: false }).value;
      expect(widthOf(text, value.font?.size ?? 0), text).toBeLessThanOrEqual(value.rect[2]);
    }
    for (const view of everyKind) {
      const { value: word } = levelFeedback(view).state;
      expect(widthOf(word, state.font?.size ?? 0), word).toBeLessThanOrEqual(state.rect[2]);
    }
  });

  it('uses colours that read at 4.5:1 or better on the black strip', () => {
    for (const [name, colour] of Object.entries(STRIP_COLOURS)) expect(contrastOnBlack(colour), name).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps every item inside the 200 x 100 strip with text large enough to read', () => {
    for (const { key, type, rect, font } of layout.items) {
      const [x, y, width, height] = rect;
      expect(x + width, key).toBeLessThanOrEqual(200);
      expect(y + height, key).toBeLessThanOrEqual(100);
      if (type === 'text') expect(font?.size, key).toBeGreaterThanOrEqual(14);
    }
  });
});
