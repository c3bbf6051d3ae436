import { formatClock } from '@stagelink/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOCK_STRIP_COLOURS, CLOCK_STRIP_FONT, clockFeedback } from '../../src/render/clock-feedback.js';
import type { ClockView } from '../../src/render/clock-view.js';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../src/render/contrast.js';
import { textWidth } from '../../src/render/text-width.js';
import { PLUGIN_DIR } from '../harness/fake-stream-deck.js';

interface LayoutItem {
  key: string;
  type: string;
  rect: [number, number, number, number];
  font?: { size: number };
}

const layout = JSON.parse(readFileSync(join(PLUGIN_DIR, 'layouts', 'clock.json'), 'utf8')) as { id: string; items: LayoutItem[] };
const item = (key: string): LayoutItem => {
  const found = layout.items.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`layouts/clock.json has no item ${key}`);
  return found;
};

const clock = (changes: Partial<Extract<ClockView, { kind: 'clock' }>> = {}): ClockView => ({
  kind: 'clock',
  transport: 'main',
  digits: '1:23',
  label: 'SECTION 2',
  alert: 'none',
  lit: false,
  progress: 0.25,
  ...changes,
});

const everyKind: ClockView[] = [
  clock(),
  clock({ alert: 'warn', lit: true }),
  clock({ alert: 'flash', lit: true }),
  clock({ alert: 'flash', lit: false }),
  clock({ digits: '--', label: 'NO CUE', progress: 0 }),
  { kind: 'stale', transport: 'main' },
  { kind: 'noLink', transport: 'main' },
  { kind: 'waiting', transport: 'main', reason: 'connecting' },
  { kind: 'waiting', transport: 'main', reason: 'no data' },
  { kind: 'waiting', transport: 'main', reason: 'loading' },
  { kind: 'largeAnswersFail', transport: 'main' },
  { kind: 'problem', transport: 'main' },
  { kind: 'setup', transport: undefined },
];

describe('the show clock strip', () => {
  it('is the layout the manifest names for the action, inside the 200 x 100 strip, with text large enough to read', () => {
    expect(layout.id).toBe('com.stagelink.mediaserver.clock');
    for (const { key, type, rect, font } of layout.items) {
      const [x, y, width, height] = rect;
      expect(x + width, key).toBeLessThanOrEqual(200);
      expect(y + height, key).toBeLessThanOrEqual(100);
      if (type === 'text') expect(font?.size, key).toBeGreaterThanOrEqual(14);
    }
    expect(item('remaining').font?.size).toBe(CLOCK_STRIP_FONT.digits);
  });

  it('fills exactly the items of the layout, for every kind of view', () => {
    const keys = layout.items.map((candidate) => candidate.key).sort();
    for (const view of everyKind) expect(Object.keys(clockFeedback(view)).sort(), view.kind).toEqual(keys);
  });

  it('shows the section over the remaining time and a bar of how far the section has gone', () => {
    expect(clockFeedback(clock())).toEqual({
      section: { value: 'main \u00b7 SECTION 2', color: CLOCK_STRIP_COLOURS.text },
      remaining: { value: '1:23', color: CLOCK_STRIP_COLOURS.text, background: CLOCK_STRIP_COLOURS.background, font: { size: CLOCK_STRIP_FONT.digits, weight: 700 } },
      progress: { value: 25, opacity: 1, bar_fill_c: CLOCK_STRIP_COLOURS.text },
    });
  });

  it('turns the digits and the bar orange under the threshold, and blinks the digits black on orange under the second', () => {
    const warn = clockFeedback(clock({ alert: 'warn', lit: true }));
    expect(warn.remaining).toMatchObject({ color: CLOCK_STRIP_COLOURS.ink, background: CLOCK_STRIP_COLOURS.warn });
    expect(warn.progress.bar_fill_c).toBe(CLOCK_STRIP_COLOURS.warn);
    const dark = clockFeedback(clock({ alert: 'flash', lit: false }));
    expect(dark.remaining).toMatchObject({ color: CLOCK_STRIP_COLOURS.warn, background: CLOCK_STRIP_COLOURS.background });
    expect(JSON.stringify(clockFeedback(clock({ alert: 'flash', lit: true })))).not.toBe(JSON.stringify(dark));
  });

  it('shows a word and no number, with a dimmed bar, whenever the clock is not live', () => {
    const words = everyKind.filter((view) => view.kind !== 'clock').map((view) => clockFeedback(view));
    expect(words.map((feedback) => feedback.remaining.value)).toEqual(['STALE', 'NO LINK', 'CONNECTING', 'NO DATA', 'LOADING', 'MTU?', 'PROBLEM', 'SET UP']);
    for (const feedback of words) {
      expect(feedback.remaining.value).not.toMatch(/\d/);
      expect(feedback.progress.opacity).toBeLessThan(1);
    }
  });

  it('fits every word and every clock up to ten hours in the large slot at its font size', () => {
    const slot = item('remaining');
    for (const view of everyKind) {
      const { value, font } = clockFeedback(view).remaining;
      expect(textWidth(value, font.size, true), value).toBeLessThanOrEqual(slot.rect[2]);
    }
    for (let seconds = 0; seconds < 36_000; seconds += 59) {
      const digits = formatClock(seconds, { mode: 'countdown' });
      expect(textWidth(digits, CLOCK_STRIP_FONT.digits, true), digits).toBeLessThanOrEqual(slot.rect[2]);
    }
  });

  it('reads at 4.5:1 or better: every colour on the black strip, and black on the orange of a flash', () => {
    for (const view of everyKind) {
      const { section, remaining } = clockFeedback(view);
      expect(contrastRatio(section.color, CLOCK_STRIP_COLOURS.background), view.kind).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      expect(contrastRatio(remaining.color, remaining.background), view.kind).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
  });
});
