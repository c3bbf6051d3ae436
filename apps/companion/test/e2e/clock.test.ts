/**
 * The show clock on the desk, against the simulator (both dialects): the per transport clock variables after a
 * gotosection, the section-remaining feedback (steady and blinking), and a clock that stops being live (the
 * stream down, or a stuck playhead) showing `clock_stale`, `no link` or `stale` in its times, and live again after.
 */
import { describe, expect } from 'vitest';
import { control, withReadyModule } from './session.js';

const MAIN = 'main';
const t = (suffix: string): string => `transport_main_${suffix}`;
/** How far a shown time may be from the simulator's own playhead read at the same moment (one tick and a frame). */
const TOLERANCE_S = 0.5;
const pause = async (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the show clock', () => {

  withReadyModule('shows the section, what comes next and the remainders after a gotosection', async ({ sim, host }) => {
    await host.runAction('gotosection', { transport: MAIN, section: 1, playmode: 'Play' });

    await host.waitFor(() => host.variables.get(t('section_index')) === 1 && host.variables.get(t('clock_stale')) === false, 'the clock in section 1');
    const truth = sim.state.transports.positionOf({ name: MAIN }).time;
    const remaining = host.variables.get(t('section_remaining_seconds'));
    expect(typeof remaining).toBe('number');
    expect(Math.abs((remaining as number) - (240 - truth))).toBeLessThan(TOLERANCE_S);
    expect(Math.abs((host.variables.get(t('time_seconds')) as number) - truth)).toBeLessThan(TOLERANCE_S);
    expect(host.variables.get(t('next_section_index'))).toBe(2);
    expect(host.variables.get(t('cue_next'))).toBe('Five minute call');
    expect(host.variables.get(t('section_remaining_tc'))).toMatch(/^00:0[12]:\d\d:\d\d$/);
    expect(host.variables.get(t('track_remaining_tc'))).toMatch(/^00:0[234]:\d\d:\d\d$/);
    expect(host.variables.get(t('cue_next_in_tc'))).toMatch(/^00:0[12]:\d\d:\d\d$/);
    expect(host.variables.get(t('time_tc'))).toMatch(/^00:02:\d\d:\d\d$/);
    expect(host.variables.get(t('section_remaining_countdown'))).toMatch(/^[12]:\d\d$/);
    expect(host.undefinedVariables).toEqual([]);

    // It ticks between the director's updates, and each value goes to Companion only when it changed; the clock
    // feedbacks whose inputs stand still (status, section) are not checked again meanwhile.
    const staleFeedback = host.placeFeedback('clock_stale', { transport: MAIN });
    const inSectionFeedback = host.placeFeedback('clock_in_section', { transport: MAIN, section: 1 });
    await host.waitFor(() => host.feedback(staleFeedback) === false && host.feedback(inSectionFeedback) === true, 'the clock feedbacks checked');
    // A feedback type is checked when the input of any transport changes: every clock live first.
    const staleIds = Object.keys(host.variableDefinitions).filter((id) => id.endsWith('_clock_stale'));
    await host.waitFor(() => staleIds.every((id) => host.variables.get(id) === false), 'every transport\'s clock live');
    const checks: string[] = [];
    const stop = host.watch((event) => {
      if (event.kind === 'feedback') checks.push(event.feedbackId);
    });
    const sent = host.variableHistory.filter(({ id }) => id === t('section_remaining_seconds')).length;
    await pause(1200);
    stop();
    // The module reads the clocks about five times meanwhile; another transport crossing into a section may cost one check.
    expect(checks.filter((id) => id === 'clock_stale').length).toBeLessThanOrEqual(1);
    expect(checks.filter((id) => id === 'clock_in_section').length).toBeLessThanOrEqual(1);
    const later = host.variableHistory.filter(({ id }) => id === t('section_remaining_seconds'));
    expect(later.length).toBeGreaterThan(sent);
    expect(later.at(-1)?.value).toBeLessThan(remaining as number);
    expect(later.slice(sent).every(({ value }, index, all) => index === 0 || value !== all[index - 1]?.value)).toBe(true);

    const inSection = host.placeFeedback('clock_in_section', { transport: MAIN, section: 1 });
    const inOther = host.placeFeedback('clock_in_section', { transport: MAIN, section: 0 });
    await host.waitFor(() => host.feedback(inSection) === true, 'in section 1');
    expect(host.feedback(inOther)).toBe(false);
  });

  withReadyModule('turns the section-remaining feedback on below its seconds, steady or blinking', async ({ sim, host }) => {
    const below = host.placeFeedback('clock_remaining_below', { transport: MAIN, seconds: 10, blink: false });
    const blinking = host.placeFeedback('clock_remaining_below', { transport: MAIN, seconds: 10, blink: true });
    await host.runAction('gotosection', { transport: MAIN, section: 0, playmode: 'Play' });
    await host.waitFor(() => host.variables.get(t('section_index')) === 0 && host.variables.get(t('clock_stale')) === false, 'the clock in section 0');
    expect(host.feedback(below)).toBe(false);

    // Eight seconds before section 1 ends: the remainder is below 10 s at once and for the rest of the test.
    await host.runAction('gototime', { transport: MAIN, time: 232, playmode: 'PlaySection' });

    await host.waitFor(() => host.feedback(below) === true, 'below 10 s on');
    expect(host.variables.get(t('section_index'))).toBe(1);
    expect(host.variables.get(t('section_remaining_seconds'))).toBeLessThan(10);
    expect(sim.state.transports.positionOf({ name: MAIN }).time).toBeGreaterThan(230);
    const seen: unknown[] = [];
    const stop = host.watch((event) => {
      if (event.kind === 'feedback' && event.id === blinking) seen.push(event.result);
    });
    await pause(1600);
    stop();
    expect(host.feedback(below)).toBe(true);
    // On and off each half second: both seen within a second and a half, and changing at least twice.
    expect(seen).toContain(true);
    expect(seen).toContain(false);
    expect(seen.filter((value, index) => index > 0 && value !== seen[index - 1]).length).toBeGreaterThanOrEqual(2);
  });

  withReadyModule('shows clock_stale and no link in the times while the stream is down, and live again after', async ({ sim, host }) => {
    const stale = host.placeFeedback('clock_stale', { transport: MAIN });
    const below = host.placeFeedback('clock_remaining_below', { transport: MAIN, seconds: 1000, blink: false });
    await host.runAction('play', { transport: MAIN });
    await host.waitFor(() => host.variables.get(t('clock_stale')) === false && host.feedback(stale) === false && host.feedback(below) === true, 'a live clock');
    const live = host.variables.get(t('time_seconds'));

    await control(sim, { action: 'refuseUpgrades', on: true });
    await control(sim, { action: 'dropSockets' });

    await host.waitFor(() => host.variables.get(t('clock_stale')) === true, 'clock_stale true');
    await host.waitFor(() => host.feedback(stale) === true && host.feedback(below) === false, 'stale feedback on, below off');
    const times = [t('time_tc'), t('time_seconds'), t('section_remaining_seconds'), t('section_remaining_tc'), t('section_remaining_countdown')];
    // A button that shows a time never shows one that stopped as if it ran.
    await host.waitFor(() => times.every((id) => host.variables.get(id) === 'no link'), 'every time saying no link');
    await pause(1200);
    expect(times.map((id) => host.variables.get(id))).toEqual(times.map(() => 'no link'));

    await control(sim, { action: 'refuseUpgrades', on: false });

    await host.waitFor(() => host.variables.get(t('clock_stale')) === false, 'clock_stale false again', 20_000);
    await host.waitFor(() => host.feedback(stale) === false, 'stale feedback off');
    await host.waitFor(() => typeof host.variables.get(t('time_seconds')) === 'number' && host.variables.get(t('time_seconds')) !== live, 'the time moving again');
  });

  withReadyModule('shows clock_stale and stale in the times while the playhead is stuck though the transport plays', async ({ sim, host }) => {
    const stale = host.placeFeedback('clock_stale', { transport: MAIN });
    await host.runAction('play', { transport: MAIN });
    await host.waitFor(() => host.variables.get(t('clock_stale')) === false && host.feedback(stale) === false, 'a live clock');

    // A stuck render: the stream stays up and the transport still plays, but the playhead stands still.
    await control(sim, { action: 'freezePlayhead', transport: MAIN, on: true });

    // Core calls a playhead still past the live silence bound (5 s by default) stale.
    await host.waitFor(() => host.variables.get(t('clock_stale')) === true && host.feedback(stale) === true, 'clock_stale true', 20_000);
    expect(host.variables.get(t('playing'))).toBe(true);
    const times = [t('time_tc'), t('time_seconds'), t('section_remaining_seconds')];
    await host.waitFor(() => times.every((id) => host.variables.get(id) === 'stale'), 'every time saying stale');
    await pause(1200);
    expect(times.map((id) => host.variables.get(id))).toEqual(times.map(() => 'stale'));

    await control(sim, { action: 'freezePlayhead', transport: MAIN, on: false });

    await host.waitFor(() => host.variables.get(t('clock_stale')) === false && host.feedback(stale) === false, 'clock live again', 20_000);
    await host.waitFor(() => typeof host.variables.get(t('time_seconds')) === 'number', 'the time shown again');
  });

  withReadyModule('offers a big-digits preset per transport with the countdown and its feedbacks', ({ host }) => {
    const preset = host.presets.presets['transport_main_clock'];
    const simple = preset as { type: string; style: { text: string }; feedbacks: { feedbackId: string }[] };
    expect(simple.type).toBe('simple');
    expect(simple.style.text).toMatch(/:transport_main_section_remaining_countdown\)$/);
    const feedbacks = simple.feedbacks.map(({ feedbackId }) => feedbackId);
    expect(feedbacks).toEqual(['clock_remaining_below', 'clock_stale']);
    for (const id of feedbacks) expect(host.feedbacks[id]).toBeDefined();
  });
});
