/**
 * The ids saved buttons hold: each transport action's id and its options' ids, fixed here rather than read from
 * core at run time. Each maps to core's command and field names, which are the same today; should core rename a
 * command or a field, only the map changes (and, if an id itself must change, an upgrade script in upgrades.ts
 * rewrites saved buttons): a button saved with any release keeps its meaning.
 */
import type { TransportCommand, TransportField } from '@stagelink/core';

/** Action id → core's command and, per option id, core's field. */
export const TRANSPORT_ACTION_IDS = {
  play: { command: 'play', options: {} },
  stop: { command: 'stop', options: {} },
  playsection: { command: 'playsection', options: {} },
  playloopsection: { command: 'playloopsection', options: {} },
  returntostart: { command: 'returntostart', options: {} },
  gototrack: { command: 'gototrack', options: { track: 'track', playmode: 'playmode' } },
  gotonexttrack: { command: 'gotonexttrack', options: { playmode: 'playmode' } },
  gotoprevtrack: { command: 'gotoprevtrack', options: { playmode: 'playmode' } },
  gotosection: { command: 'gotosection', options: { section: 'section', playmode: 'playmode', track: 'track' } },
  gotonextsection: { command: 'gotonextsection', options: { playmode: 'playmode' } },
  gotoprevsection: { command: 'gotoprevsection', options: { playmode: 'playmode' } },
  gotonote: { command: 'gotonote', options: { note: 'note', playmode: 'playmode', track: 'track' } },
  gototag: { command: 'gototag', options: { tagType: 'tagType', tagValue: 'tagValue', allowGlobalJump: 'allowGlobalJump', playmode: 'playmode' } },
  gototime: { command: 'gototime', options: { time: 'time', playmode: 'playmode' } },
  gototimecode: { command: 'gototimecode', options: { timecode: 'timecode', ignoreTags: 'ignoreTags', playmode: 'playmode' } },
  gotoframe: { command: 'gotoframe', options: { frame: 'frame', playmode: 'playmode' } },
  volume: { command: 'volume', options: { volume: 'volume' } },
  brightness: { command: 'brightness', options: { brightness: 'brightness' } },
  engaged: { command: 'engaged', options: { engaged: 'engaged' } },
  speed: { command: 'speed', options: { speed: 'speed' } },
} as const satisfies Record<string, { command: TransportCommand; options: Partial<Record<string, TransportField>> }>;

export type TransportActionId = keyof typeof TRANSPORT_ACTION_IDS;

export const TRANSPORT_ACTION_ID_LIST = Object.keys(TRANSPORT_ACTION_IDS) as TransportActionId[];

/** The option id that holds a core field in an action's saved options. */
export function optionIdOf(action: TransportActionId, field: TransportField): string {
  const options: Partial<Record<string, TransportField>> = TRANSPORT_ACTION_IDS[action].options;
  const found = Object.entries(options).find(([, each]) => each === field)?.[0];
  if (found === undefined) throw new Error(`The action "${action}" has no option for core's field "${field}": map it in saved-ids.ts.`);
  return found;
}
