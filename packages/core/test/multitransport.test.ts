import { describe, expect, it } from 'vitest';
import { multitransportMembers, type Multitransport, type Transport } from '../src/index.js';

const transport = (uid: string, name: string): Transport => ({ uid, name }) as Transport;

describe('multitransportMembers', () => {
  const transports = [transport('11', 'main'), transport('12', 'side screens'), transport('13', 'backstage')];

  it('finds members listed by uid, as servers list them, and by name', () => {
    const multi = { uid: '20', name: 'stage', transports: ['11', 'side screens'] } as Multitransport;
    expect(multitransportMembers(transports, multi).map(({ name }) => name)).toEqual(['main', 'side screens']);
  });

  it('finds none for members the list does not have', () => {
    expect(multitransportMembers(transports, { uid: '21', name: 'gone', transports: ['99'] } as Multitransport)).toEqual([]);
  });
});
