import { describe, expect, it } from 'vitest';
import { parseTxtRecord } from '../src/protocol.js';

describe('parseTxtRecord', () => {
  it('reads key=value strings from raw buffers, keys case-insensitive, first occurrence wins', () => {
    const raw = [Buffer.from('Session=Show A'), Buffer.from('session=ignored'), Buffer.from('flag'), Buffer.from('empty=')];
    expect(parseTxtRecord(raw)).toEqual({ session: 'Show A', flag: true, empty: '' });
  });

  it('keeps = signs inside values and skips entries without a key', () => {
    expect(parseTxtRecord([Buffer.from('url=a=b'), Buffer.from('=nokey')])).toEqual({ url: 'a=b' });
  });

  it('answers an empty record for nothing', () => {
    expect(parseTxtRecord(undefined)).toEqual({});
  });
});
