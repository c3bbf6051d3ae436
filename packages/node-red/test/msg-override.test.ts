import { InvalidInputError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { asBoolean, asNumber, asText, MessageProperties } from '../src/shared/msg-override.js';
import type { Node, NodeAPI, NodeDef } from '../src/shared/node-red.js';

describe('msg value conversions', () => {
  it('reads numbers from numbers and numeric text, and refuses anything else', () => {
    expect(asNumber(12.5, 'time')).toBe(12.5);
    expect(asNumber('42', 'frame')).toBe(42);
    expect(asNumber('', 'frame')).toBeUndefined();
    expect(() => asNumber('ten', 'time')).toThrow(/time must be a number \(got "ten"\)/);
    expect(() => asNumber(Number.NaN, 'time')).toThrow(/time must be a number/);
    // A value that is not text is shown bare, in no language's words: the quotes tell text apart.
    expect(() => asNumber(true, 'time')).toThrow(/time must be a number \(got true\)/);
  });

  it('reads text, taking a number as its digits and refusing objects', () => {
    expect(asText('Intro', 'track')).toBe('Intro');
    expect(asText(3, 'section')).toBe('3');
    expect(() => asText({ name: 'x' }, 'message')).toThrow(/message must be text \(got an object\)/);
  });

  it('reads booleans from true/false only', () => {
    expect(asBoolean(true, 'engaged')).toBe(true);
    expect(asBoolean('false', 'engaged')).toBe(false);
    expect(() => asBoolean(1, 'engaged')).toThrow(/engaged must be true or false/);
  });
});

describe('typed-input settings (hardening)', () => {
  /** A runtime whose evaluateNodeProperty throws, as Node-RED's does for a `date` format that is not text. */
  const throwingRuntime = {
    util: {
      evaluateNodeProperty: () => {
        throw new TypeError('format.replace is not a function');
      },
    },
  } as unknown as NodeAPI;

  it('turns an evaluation that throws instead of calling back into a clear InvalidInputError', async () => {
    const def: NodeDef = { id: 'n1', type: 'stagelink-transport', command: ['play'], commandType: 'date' };
    const props = new MessageProperties(throwingRuntime, {} as Node<never>, def, {});
    const reading = props.value('command');
    await expect(reading).rejects.toBeInstanceOf(InvalidInputError);
    await expect(reading).rejects.toThrow(/Could not read command \(date \["play"\]\): format\.replace is not a function/);
  });
});
