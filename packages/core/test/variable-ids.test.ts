import { describe, expect, it } from 'vitest';
import { VariableIds, variableIdOf } from '../src/index.js';

describe('variableIdOf', () => {
  it('writes a name in lower case with anything not a letter or digit as _', () => {
    expect(variableIdOf('Actor 1')).toBe('actor_1');
    expect(variableIdOf('DIRECTOR01')).toBe('director01');
    expect(variableIdOf('main.screen-L')).toBe('main_screen_l');
    expect(variableIdOf('Bühne')).toBe('b_hne');
  });

  it('never gives an empty id', () => {
    expect(variableIdOf('')).toBe('_');
  });
});

describe('VariableIds', () => {
  it('gives names that meet on one id a numeric suffix, in the order they were seen', () => {
    const ids = new VariableIds();
    expect(ids.idOf('Actor 1')).toBe('actor_1');
    expect(ids.idOf('actor-1')).toBe('actor_1_2');
    expect(ids.idOf('ACTOR 1')).toBe('actor_1_3');
  });

  it('keeps a name on its id whatever other names come later', () => {
    const ids = new VariableIds();
    expect(ids.idOf('actor_1_2')).toBe('actor_1_2');
    expect(ids.idOf('Actor 1')).toBe('actor_1');
    expect(ids.idOf('actor-1')).toBe('actor_1_3');
    expect(ids.idOf('Actor 1')).toBe('actor_1');
    expect(ids.idOf('actor_1_2')).toBe('actor_1_2');
  });
});
