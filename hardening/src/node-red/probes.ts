import type { InputNodeType, ShowFacts } from '../gen/node-messages.js';
import type { Probe } from './flows.js';

export const SERVER_ID = 'hardening-server';
export const DRIVE_ID = 'hardening-drive';

export interface MessageProbe extends Probe {
  type: InputNodeType;
}

/**
 * Two probes per node type with an input: settings as plain text, and settings that read a field from
 * msg.payload (typed inputs), so generated values reach the node both as msg overrides and as evaluated
 * settings. The editor's defaults are kept where they matter (oled and request read msg.payload).
 */
export function messageProbes(facts: ShowFacts, prefix = 'msg'): MessageProbe[] {
  const server = { server: SERVER_ID };
  const drive = { drive: DRIVE_ID, driveId: facts.driveId, driveIdType: 'str', contentId: facts.contentId, contentIdType: 'str' };
  const probes: [InputNodeType, string, Record<string, unknown>][] = [
    ['stagelink-transport', 'text', { ...server, command: 'play', transport: 'main', transportType: 'str' }],
    ['stagelink-transport', 'typed', { ...server, command: 'gototrack', transport: 'main', transportType: 'str', track: 'payload', trackType: 'msg' }],
    ['stagelink-failover', 'text', { ...server, operation: 'settings', armed: false }],
    ['stagelink-failover', 'typed', { ...server, operation: 'failovermachine', machine: 'payload', machineType: 'msg', armed: false }],
    ['stagelink-drive-version', 'text', { ...drive, operation: 'list', listMode: 'all' }],
    ['stagelink-drive-version', 'typed', { ...drive, operation: 'get', versionId: 'payload', versionIdType: 'msg' }],
    ['stagelink-oled-out', 'text', { ...server, title: 'Hardening', titleType: 'str', message: 'Stand by', messageType: 'str', priority: '0', priorityType: 'num' }],
    ['stagelink-oled-out', 'typed', { ...server, title: '', titleType: 'str', message: 'payload', messageType: 'msg', priority: '0', priorityType: 'num' }],
    ['stagelink-status', 'text', { ...server, operation: 'health', machine: '', machineType: 'str', interval: 0 }],
    ['stagelink-status', 'typed', { ...server, operation: 'health', machine: 'payload', machineType: 'msg', interval: 0 }],
    ['stagelink-request', 'text', { ...server, endpoint: 'transports', body: 'payload', bodyType: 'msg', query: '{}', queryType: 'json', params: '{}', paramsType: 'json' }],
    ['stagelink-request', 'typed', { ...server, endpoint: 'play', body: 'payload', bodyType: 'msg', query: '{}', queryType: 'json', params: '{}', paramsType: 'json' }],
  ];
  return probes.map(([type, variant, settings]) => ({ id: `${prefix}-${type.replace('stagelink-', '')}-${variant}`, type, node: { type, name: '', ...settings } }));
}
