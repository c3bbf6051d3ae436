import { ConnectionError } from '@stagelink/core';
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
    // Closing clears the line: Node-RED keeps the status of a node that a deploy restarts.
    expect(shown).toEqual([{ fill: 'green', shape: 'dot', text: 'armed · failed over Actor Actor Actor A…' }, {}]);
    expect(shown[0]?.text).toHaveLength(40);
  });

  it("shows the server's state at once, never hiding a result of the node's own with good news", () => {
    const shown: NodeStatus[] = [];
    const node = { status: (status: NodeStatus) => shown.push(status) } as unknown as Node<never>;
    const line = new StatusLine(node);
    const connected = { fill: 'green', shape: 'dot', text: 'connected' } as const;
    const unreachable = { fill: 'red', shape: 'ring', text: 'unreachable' } as const;
    line.serverState({ fill: 'yellow', shape: 'ring', text: 'connecting' }, 'good');
    line.ok('play main');
    line.serverState(connected, 'good');
    expect(shown.map((status) => status.text)).toEqual(['connecting', 'play main']);
    line.serverState(unreachable, 'bad');
    line.failed(new ConnectionError('nothing answered'));
    line.serverState(connected, 'good');
    line.close();
    // The failure to reach the server waits for the throttle's window; the server's answer replaces it before it shows.
    expect(shown.map((status) => status.text)).toEqual(['connecting', 'play main', 'unreachable', 'connected', undefined]);
  });

  it("leaves the line cleared when the server's state comes after the node closed", () => {
    const shown: NodeStatus[] = [];
    const node = { status: (status: NodeStatus) => shown.push(status) } as unknown as Node<never>;
    const line = new StatusLine(node);
    line.serverState({ fill: 'yellow', shape: 'ring', text: 'connecting' }, 'good');
    line.close();
    line.serverState({ fill: 'red', shape: 'ring', text: 'unreachable' }, 'bad');
    expect(shown).toEqual([{ fill: 'yellow', shape: 'ring', text: 'connecting' }, {}]);
  });

  it("keeps a live node's own state through the server's good news, and shows it again once the server's trouble passes", async () => {
    const shown: NodeStatus[] = [];
    const node = { status: (status: NodeStatus) => shown.push(status) } as unknown as Node<never>;
    const line = new StatusLine(node, { live: true });
    const connected = { fill: 'green', shape: 'dot', text: 'connected' } as const;
    line.serverState({ fill: 'yellow', shape: 'ring', text: 'connecting' }, 'good');
    line.offline();
    // The throttle shows the first push of a quiet line at once.
    line.serverState(connected, 'good');
    line.serverState({ fill: 'red', shape: 'ring', text: 'unreachable' }, 'bad');
    line.serverState(connected, 'good');
    expect(shown.map((status) => status.text)).toEqual(['connecting', 'offline', 'unreachable', 'offline']);
    // A setting that cannot work stays shown over whatever the node makes of it.
    line.serverState({ fill: 'red', shape: 'dot', text: 'bad server setting' }, 'broken');
    line.failed(new ConnectionError('nothing answered'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    line.close();
    expect(shown.map((status) => status.text)).toEqual(['connecting', 'offline', 'unreachable', 'offline', 'bad server setting', undefined]);
  });
});
