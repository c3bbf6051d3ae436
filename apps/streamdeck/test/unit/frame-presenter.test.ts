import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FramePresenter } from '../../src/state/frames/frame-presenter.js';

describe('FramePresenter', () => {
  let sent: string[];
  let presenter: FramePresenter;

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    presenter = new FramePresenter((frame) => sent.push(frame));
  });

  afterEach(() => {
    presenter.dispose();
    vi.useRealTimers();
  });

  it('paints at once when a visible key gets its first frame', () => {
    presenter.appear();
    presenter.show('a');
    expect(sent).toEqual(['a']);
  });

  it('does not resend an identical frame', () => {
    presenter.appear();
    presenter.show('a');
    vi.advanceTimersByTime(1000);
    presenter.show('a');
    vi.advanceTimersByTime(1000);
    presenter.show('a');
    expect(sent).toEqual(['a']);
  });

  it('sends at most 4 frames a second, and always the newest', () => {
    presenter.appear();
    for (let i = 0; i < 100; i++) {
      presenter.show(`frame ${i}`);
      vi.advanceTimersByTime(10); // 100 frames over one second
    }
    vi.advanceTimersByTime(250);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.length).toBeLessThanOrEqual(5);
    expect(sent.at(-1)).toBe('frame 99');
  });

  it('keeps frames at least 250 ms apart', () => {
    const times: number[] = [];
    const timed = new FramePresenter(() => times.push(Date.now()));
    timed.appear();
    for (let i = 0; i < 40; i++) {
      timed.show(`f${i}`);
      vi.advanceTimersByTime(37);
    }
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(250);
    timed.dispose();
  });

  it('sends nothing while the key is hidden', () => {
    presenter.show('before appearing');
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([]);
    presenter.appear();
    presenter.disappear();
    presenter.show('while hidden');
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual(['before appearing']);
  });

  it('drops a frame that was waiting for its slot when the key disappears', () => {
    presenter.appear();
    presenter.show('a');
    presenter.show('b');
    presenter.disappear();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual(['a']);
  });

  it('repaints on every appearance, even with an unchanged frame', () => {
    presenter.appear();
    presenter.show('a');
    presenter.disappear();
    vi.advanceTimersByTime(1000);
    presenter.appear();
    vi.advanceTimersByTime(1000);
    presenter.disappear();
    presenter.appear();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual(['a', 'a', 'a']);
  });

  it('sends nothing after dispose', () => {
    presenter.appear();
    presenter.show('a');
    presenter.show('b');
    presenter.dispose();
    presenter.show('c');
    presenter.appear();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual(['a']);
  });
});
