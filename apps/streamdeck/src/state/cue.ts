/**
 * A transport key's settings turned into one of the spec's transport commands, and fired through core. The
 * command names are the spec's path names (`play`, `gototrack`, ...), as DESIGN.md fixes them.
 */
import type { MediaServer, Ref } from '@stagelink/core';
import { numberSetting, textSetting, type TransportKeySettings } from '../settings.js';

/** Commands whose body is only the transports. */
const PLAIN_COMMANDS = {
  play: 'PLAY',
  stop: 'STOP',
  playsection: 'PLAY SECTION',
  playloopsection: 'LOOP SECTION',
  returntostart: 'TO START',
} as const;

/** Goto commands that need nothing but the transport (and an optional playmode). */
const STEP_COMMANDS = {
  gotonexttrack: 'NEXT TRACK',
  gotoprevtrack: 'PREV TRACK',
  gotonextsection: 'NEXT SECTION',
  gotoprevsection: 'PREV SECTION',
} as const;

/** Engages the transport when it is disengaged and the other way round (the spec's `engaged`). */
const TOGGLE_COMMANDS = {
  engaged: 'ENGAGE',
} as const;

/** Goto commands with a target of their own. */
const TARGET_COMMANDS = {
  gototrack: 'GO TO TRACK',
  gotosection: 'GO TO SECTION',
  gotonote: 'GO TO NOTE',
  gototag: 'GO TO TAG',
  gototime: 'GO TO TIME',
  gototimecode: 'GO TO TIMECODE',
  gotoframe: 'GO TO FRAME',
} as const;

type PlainCommand = keyof typeof PLAIN_COMMANDS;
type StepCommand = keyof typeof STEP_COMMANDS;


export type Cue = { transport: Ref; transportName: string; playmode?: string; label: string; name: string } & (
  | { command: PlainCommand }
  | { command: StepCommand }
  | { command: 'engaged' }
  | { command: 'gototrack'; track: Ref }
  | { command: 'gotosection'; section: string }
  | { command: 'gotonote'; note: string }
  | { command: 'gototag'; tagType: string; tagValue: string }
  | { command: 'gototime'; time: number }
  | { command: 'gototimecode'; timecode: string }
  | { command: 'gotoframe'; frame: number }
);

export type CueReading = { ok: true; cue: Cue } | { ok: false; problem: string; label: string };

/** Reads a key's settings; a key that is not fully set up gets a sentence saying what is missing. */
export function readCue(settings: TransportKeySettings): CueReading {
  const command = textSetting(settings.command)?.toLowerCase();
  if (!command) return { ok: false, label: 'TRANSPORT', problem: 'Choose a command.' };
  const label = labelOf(command);
  if (!label) return { ok: false, label: 'TRANSPORT', problem: `Unknown command "${command}".` };
  const transportName = textSetting(settings.transport);
  if (!transportName) return { ok: false, label, problem: 'Choose a transport.' };
  const playmode = textSetting(settings.playmode);
  const base = { transport: { name: transportName }, transportName, label, ...(playmode ? { playmode } : {}) };
  const missing = (what: string): CueReading => ({ ok: false, label, problem: `Set the ${what}.` });

  if (Object.hasOwn(PLAIN_COMMANDS, command) || Object.hasOwn(STEP_COMMANDS, command) || Object.hasOwn(TOGGLE_COMMANDS, command)) {
    return { ok: true, cue: { ...base, command: command as PlainCommand | StepCommand | 'engaged', name: transportName } };
  }
  switch (command) {
    case 'gototrack': {
      const track = textSetting(settings.track);
      return track ? { ok: true, cue: { ...base, command, track: { name: track }, name: track } } : missing('track');
    }
    case 'gotosection': {
      const section = textSetting(settings.section);
      return section ? { ok: true, cue: { ...base, command, section, name: `Section ${section}` } } : missing('section');
    }
    case 'gotonote': {
      const note = textSetting(settings.note);
      return note ? { ok: true, cue: { ...base, command, note, name: note } } : missing('note');
    }
    case 'gototag': {
      const tagType = textSetting(settings.tagType);
      const tagValue = textSetting(settings.tagValue);
      if (!tagType) return missing('tag type');
      if (!tagValue) return missing('tag value');
      return { ok: true, cue: { ...base, command, tagType, tagValue, name: `${tagType} ${tagValue}` } };
    }
    case 'gototime': {
      const time = numberSetting(settings.time);
      return time === undefined ? missing('time (a number)') : { ok: true, cue: { ...base, command, time, name: `${time} s` } };
    }
    case 'gototimecode': {
      const timecode = textSetting(settings.timecode);
      return timecode ? { ok: true, cue: { ...base, command, timecode, name: timecode } } : missing('timecode');
    }
    case 'gotoframe': {
      const frame = numberSetting(settings.frame);
      return frame === undefined ? missing('frame (a number)') : { ok: true, cue: { ...base, command, frame, name: `Frame ${frame}` } };
    }
    default:
      return { ok: false, label, problem: `Unknown command "${command}".` };
  }
}

function labelOf(command: string): string | undefined {
  const labels: Record<string, string> = { ...PLAIN_COMMANDS, ...STEP_COMMANDS, ...TOGGLE_COMMANDS, ...TARGET_COMMANDS };
  return Object.hasOwn(labels, command) ? labels[command] : undefined;
}

/** Sends the cue through core; rejects with core's error (which says what failed) when it did not fire. */
export async function fireCue(server: MediaServer, cue: Cue, signal?: AbortSignal): Promise<void> {
  const options = { signal };
  const { transport, playmode } = cue;
  const cued = { transport, ...(playmode ? { playmode } : {}) };
  switch (cue.command) {
    case 'play':
      return server.transport.play(transport, options);
    case 'stop':
      return server.transport.stop(transport, options);
    case 'playsection':
      return server.transport.playSection(transport, options);
    case 'playloopsection':
      return server.transport.playLoopSection(transport, options);
    case 'returntostart':
      return server.transport.returnToStart(transport, options);
    case 'gotonexttrack':
      return server.transport.gotoNextTrack(cued, options);
    case 'gotoprevtrack':
      return server.transport.gotoPrevTrack(cued, options);
    case 'gotonextsection':
      return server.transport.gotoNextSection(cued, options);
    case 'gotoprevsection':
      return server.transport.gotoPrevSection(cued, options);
    case 'gototrack':
      return server.transport.gotoTrack({ ...cued, track: cue.track }, options);
    case 'gotosection':
      return server.transport.gotoSection({ ...cued, section: cue.section }, options);
    case 'gotonote':
      return server.transport.gotoNote({ ...cued, note: cue.note }, options);
    case 'gototag':
      return server.transport.gotoTag({ ...cued, type: cue.tagType, value: cue.tagValue }, options);
    case 'gototime':
      return server.transport.gotoTime({ ...cued, time: cue.time }, options);
    case 'gototimecode':
      return server.transport.gotoTimecode({ ...cued, timecode: cue.timecode }, options);
    case 'gotoframe':
      return server.transport.gotoFrame({ ...cued, frame: cue.frame }, options);
    case 'engaged':
      return toggleEngaged(server, cue.transportName, options);
  }
}

/**
 * Reads whether the transport is engaged at the moment of the press (not from a poll that may be seconds
 * old) and sends the opposite. A multitransport counts as engaged when the server says so.
 */
async function toggleEngaged(server: MediaServer, name: string, options: { signal?: AbortSignal }): Promise<void> {
  const { transports, multitransports } = await server.transport.transports(options);
  const current = [...transports, ...multitransports].find((candidate) => candidate.name === name);
  if (!current) throw new Error(`Transport "${name}" was not found on the server: check the key's transport.`);
  await server.transport.setEngaged({ transport: { name }, engaged: !current.engaged }, options);
}
