import { describe, expect, it } from 'vitest';
import { levelFeedback } from '../../src/render/level-feedback.js';

describe('touch strip feedback', () => {
  it('shows the level as a percentage with a bar', () => {
    expect(levelFeedback({ kind: 'value', property: 'volume', transport: 'lobby', value: 0.65 })).toEqual({
      title: 'Volume \u00b7 lobby',
      value: '65%',
      indicator: { value: 65, opacity: 1 },
    });
  });

  it('says OFFLINE and dims the bar while the link is down', () => {
    const feedback = levelFeedback({ kind: 'offline', property: 'brightness', transport: 'main' });
    expect(feedback.value).toBe('OFFLINE');
    expect(feedback.indicator.opacity).toBeLessThan(1);
  });
});
