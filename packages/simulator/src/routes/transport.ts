import type { Ref } from '@stagelink/core';
import {
  toFrame,
  toNextSection,
  toNextTrack,
  toNote,
  toPrevSection,
  toPrevTrack,
  toSection,
  toTag,
  toTime,
  toTimecode,
  toTrack,
  type CueTarget,
} from '../state/cues.js';
import { optionDisabled } from '../state/refusal.js';
import { SPEED_OPTION, type SessionState } from '../state/session-state.js';
import type { LevelChange, TransportCommand } from '../state/transports.js';
import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import { queryRef } from './query.js';
import type { FamilyRoutes, RouteHandler } from './route.js';

/** `{transports: [Ref]}`: each item is a Ref directly. */
const command =
  (name: TransportCommand): RouteHandler =>
  (request, state) => {
    state.transports.command(JsonFields.body(request).refs('transports'), name);
    return answered();
  };

/** `{transports: [{transport, ...where, playmode}]}`. */
const cue =
  (target: (item: JsonFields, state: SessionState) => CueTarget): RouteHandler =>
  (request, state) => {
    const cues = JsonFields.body(request)
      .items('transports')
      .map((item) => ({ transport: item.ref('transport'), target: target(item, state), playmode: state.words.requestedPlaymode(item.optionalText('playmode')) }));
    state.transports.cue(cues);
    return answered();
  };

/** `{transports: [{transport, <key>: number}]}`. */
const level =
  (key: 'volume' | 'brightness', apply: (state: SessionState, changes: LevelChange[]) => void): RouteHandler =>
  (request, state) => {
    const changes = JsonFields.body(request)
      .items('transports')
      .map((item) => ({ transport: item.ref('transport'), value: item.number(key) }));
    apply(state, changes);
    return answered();
  };

/** Spec 4.2. */
export const transportRoutes = {
  activeTransport: (_request, state) => withResult(state.transports.active().map(state.words.transport)),
  annotations: (request, state) => withResult(state.words.annotations(state.transports.annotations(queryRef(request)))),
  setLists: (_request, state) => withResult(state.transports.setLists()),
  tracks: (_request, state) => withResult(state.transports.tracks()),
  transports: (_request, state) =>
    answered({ transports: state.transports.list().map(state.words.transport), multitransports: state.transports.multitransportList() }),
  brightness: level('brightness', (state, changes) => state.transports.setBrightness(changes)),
  volume: level('volume', (state, changes) => state.transports.setVolume(changes)),
  engaged: (request, state) => {
    const changes = JsonFields.body(request)
      .items('transports')
      .map((item): { transport: Ref; engaged: boolean } => ({ transport: item.ref('transport'), engaged: item.boolean('engaged') }));
    state.transports.setEngaged(changes);
    return answered();
  },
  gotoFrame: cue((item) => toFrame(item.number('frame'))),
  gotoNextSection: cue(() => toNextSection),
  gotoPrevSection: cue(() => toPrevSection),
  gotoNextTrack: cue(() => toNextTrack),
  gotoPrevTrack: cue(() => toPrevTrack),
  gotoNote: cue((item) => toNote(item.text('note'))),
  gotoSection: cue((item, state) => toSection(state.words.sectionIndex(item.raw('section')))),
  gotoTag: cue((item, state) =>
    toTag(item.text('type'), item.text('value'), item.optionalBoolean('allowGlobalJump') ?? false, state.words.tagTypeMatches),
  ),
  gotoTime: cue((item) => toTime(item.number('time'))),
  gotoTimecode: cue((item) => toTimecode(item.text('timecode'), item.optionalBoolean('ignoreTags') ?? false)),
  gotoTrack: cue((item) => toTrack(item.ref('track'))),
  speed: (request, state) => {
    if (!state.projectOptions.has(SPEED_OPTION)) {
      throw optionDisabled(`Transport speed control is disabled. Enable the '${SPEED_OPTION}' option to use it.`);
    }
    const changes = JsonFields.body(request)
      .items('transports')
      .map((item) => ({ transport: item.ref('transport'), value: item.number('speed') }));
    state.transports.setSpeed(changes);
    return answered();
  },
  play: command('play'),
  playLoopSection: command('playloopsection'),
  playSection: command('playsection'),
  returnToStart: command('returntostart'),
  stop: command('stop'),
} satisfies FamilyRoutes;
