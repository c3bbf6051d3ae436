import { OLED_DEFAULT_DISPLAY_SECONDS, OLED_MAX_MESSAGE_LENGTH } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { Oled, truncateOledMessage } from '../src/state/hardware/oled.js';
import { StatusCode } from '../src/state/refusal.js';
import { ManualClock, refusalOf } from './support/demo-state.js';

describe('OLED front screen', () => {
  it('truncates a message longer than 200 characters', () => {
    const oled = new Oled(new ManualClock());
    const result = oled.notify({ title: 'Show', message: 'x'.repeat(250), priority: 1 });
    expect(result).toEqual({ priority: 1, title: 'Show', message: 'x'.repeat(OLED_MAX_MESSAGE_LENGTH) });
    expect(oled.history()[0]?.truncated).toBe(true);
  });

  it('keeps a message of exactly 200 characters, and never splits a character in two', () => {
    expect(truncateOledMessage('y'.repeat(200))).toHaveLength(200);
    const emoji = truncateOledMessage('🎭'.repeat(201));
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji.endsWith('🎭')).toBe(true);
  });

  it('shows a notification for 10 seconds by default', () => {
    const clock = new ManualClock();
    const oled = new Oled(clock);
    oled.notify({ title: 'Doors', message: 'Open', priority: 0 });
    clock.advanceSeconds(OLED_DEFAULT_DISPLAY_SECONDS - 0.1);
    expect(oled.onScreen()?.message).toBe('Open');
    clock.advanceSeconds(0.1);
    expect(oled.onScreen()).toBeUndefined();
  });

  it('uses the display time set through the time endpoint for later notifications', () => {
    const clock = new ManualClock();
    const oled = new Oled(clock);
    expect(oled.setDisplayTime(3).message).toContain('3 seconds');
    oled.notify({ title: '', message: 'Short', priority: 0 });
    clock.advanceSeconds(3);
    expect(oled.onScreen()).toBeUndefined();
  });

  it('refuses a display time of 0 or less', () => {
    expect(refusalOf(() => new Oled(new ManualClock()).setDisplayTime(0)).code).toBe(StatusCode.invalidArgument);
  });
});
