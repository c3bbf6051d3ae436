import { describe, expect, it } from 'vitest';
import type { Node, NodeStatus } from '../src/shared/node-red.js';
import { StatusLine } from '../src/shared/status.js';

describe('StatusLine', () => {
  it('shows a long text cut to one line of 40 characters, after the standing word', () => {
    const shown: NodeStatus[] = [];
    const node = { status: (status: NodeStatus) => shown.push(status) } as unknown as Node<never>;
    const line = new StatusLine(node, { standing: 'armed' });
    line.ok(`failed over\n  ${'Actor '.repeat(10)}`);
    line.close();
    expect(shown).toEqual([{ fill: 'green', shape: 'dot', text: 'armed · failed over Actor Actor Actor A…' }]);
    expect(shown[0]?.text).toHaveLength(40);
  });
});
