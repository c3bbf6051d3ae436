import { livePresets } from '@stagelink/core';
import { INPUT_NODE_TYPES, type InputNodeType, type ShowFacts, validFields } from './node-messages.js';
import type { Random } from './random.js';
import { hostileSetting, type Wire } from './values.js';

/**
 * Generated node configurations, as a hand-edited or imported flow could hold them. Addresses are only ever
 * loopback or malformed: nothing generated here may send a packet off this machine.
 */

/** Hosts for a stagelink-server: the simulator, closed loopback ports, and strings core must refuse itself. */
export function serverHosts(simUrl: string): readonly Wire[] {
  return [simUrl, simUrl.replace('http://', ''), `${simUrl}/`, 'http://127.0.0.1:1', '127.0.0.1:9', 'http://[::1]:1', '', '   ', 'http://', 'ftp://127.0.0.1', 'http://127.0.0.1:99999', 'ws://127.0.0.1:1', 5, null, {}, [], true];
}

export function driveBaseUrls(driveUrl: string): readonly Wire[] {
  return [driveUrl, `${driveUrl}/`, `${driveUrl}/v1`, 'http://127.0.0.1:1', '', 'not a url', 'ftp://127.0.0.1', 5, null, {}];
}

export function driveTokens(token: string): readonly Wire[] {
  return [token, token, 'wrong-token', '', ' ', `${token}\r\nX-Injected: 1`, 'é'.repeat(10), 'x'.repeat(100_000)];
}

const TYPED_INPUT_TYPES = ['str', 'num', 'bool', 'json', 'msg', 'flow', 'global', 'env', 'jsonata', 'date', 'bin', 'bogus', ''] as const;

/** What a typed-input setting holds for a given type: sometimes right, often not. */
function typedValue(random: Random, type: string, valid: readonly Wire[]): Wire {
  switch (type) {
    case 'json':
      return random.pick(['{"name":"main"}', '{', '[1,2', '"main"', 'null', '{"__proto__":{"hardeningPolluted":true}}', '{"constructor":{"prototype":{"hardeningPolluted":true}}}']);
    case 'msg':
      return random.pick(['payload', 'topic', '__proto__', 'constructor.prototype', 'payload[0].x', 'a..b', '']);
    case 'jsonata':
      return random.pick(['"main"', '$string(payload)', '(', 'payload.nope.deeper', '$sum("a")', '$error("stop")']);
    case 'env':
      return random.pick(['HOME', 'HARDENING_UNSET_VARIABLE', '${HOME}', '']);
    case 'flow':
    case 'global':
      return random.pick(['hardeningUnset', 'x.y.z', '']);
    default:
      return random.chance(0.6) ? random.pick(valid) : hostileSetting(random);
  }
}

/** Settings of one node with an input: the message pools as defaults, each maybe typed, maybe hostile. */
export function generateInputSettings(random: Random, type: InputNodeType, facts: ShowFacts): Record<string, Wire> {
  const pools = validFields(facts)[type];
  const settings: Record<string, Wire> = {};
  for (const [name, valid] of Object.entries(pools)) {
    if (name === 'confirm' || name === 'payload' || name === 'topic' || !random.chance(0.7)) continue;
    const kind = random.pick(TYPED_INPUT_TYPES);
    settings[name] = typedValue(random, kind, valid);
    if (kind !== '') settings[`${name}Type`] = kind;
    if (random.chance(0.2)) settings[`${name}By`] = random.pick(['uid', 'name', 'bogus', 5]);
  }
  // Never armed: nothing generated may be allowed to move a show. Values that are not `true` must not arm it.
  if (type === 'stagelink-failover') settings.armed = random.pick<Wire>([false, 'true', 1, null]);
  if (type === 'stagelink-status') settings.interval = random.pick<Wire>([0, '', 'x', -1, 0.001, 1e9, null]);
  return settings;
}

/** Settings of a liveupdate-in node: presets, custom expressions, intervals and averages, right or not. */
export function generateLiveSettings(random: Random): Record<string, Wire> {
  const presets: Wire[] = [...Object.keys(livePresets), 'custom', 'custom', 'bogus', '', 5, null];
  return {
    preset: random.pick(presets),
    machine: random.pick<Wire>(['actor-1', '127.0.0.1', '', 'a"b', '../', 5, '1', '18446744073709551615']),
    workload: random.pick<Wire>(['1', '2', '99', '', 'x', -1]),
    instance: random.pick<Wire>(['0', '1', '7', '', '-1', 'x', 1.5]),
    object: random.pick<Wire>(['subsystem:MonitoringManager.findLocalMonitor("fps")', 'subsystem:Nope', '', '"', 'x'.repeat(10_000), 5]),
    properties: random.pick<Wire>(['object.seriesAverage("Actual", 1)', 'object.nope()', '', '\n\n', 'a\nb\nc', ['x'], 5]),
    interval: random.pick<Wire>([100, 0, -1, 5, '250', 'x', 1e9, null]),
    average: random.pick<Wire>([0, 1, 10, '5', -3, 'x', 1e6, 2.5]),
    topic: random.pick<Wire>(['', 'fps', 5, null]),
    store: random.pick<Wire>(['', 'flow', 'global', 'Flow', 1, true]),
  };
}

export { INPUT_NODE_TYPES };
