import type { Annotations, ShowSetList, ShowTrack } from '../show.js';
import type { MultitransportModel, TransportModel } from '../transports.js';
import { PLAYMODES, type Playmode } from '../playmodes.js';
import { MAX_UINT64_UID, type UidSource } from '../uids.js';

/** Above 2^53: as a JS number it would read 9007199254740992. Seeded so tests can show it is kept as a string. */
export const SIDE_SCREENS_UID = '9007199254740993';

export interface ShowSeed {
  transports: TransportModel[];
  multitransports: MultitransportModel[];
  /** The multitransport `activetransport` reports at start. */
  activeName: string;
}

type AnnotationSeed = Partial<Annotations>;

/**
 * The demo show. Lengths and times are seconds. Sections are numbered from "1" and the first starts at 0.
 * Tags are `TC` (the timecode at that place), `CUE` and `MIDI`.
 */
export function seedShow(uids: UidSource, now: number): ShowSeed {
  const track = (name: string, length: number, crossfade: string, annotations: AnnotationSeed, uid = uids.next()): ShowTrack => ({
    uid,
    name,
    length,
    crossfade,
    annotations: { notes: annotations.notes ?? [], tags: annotations.tags ?? [], sections: annotations.sections ?? [{ time: 0, index: 0 }] },
  });
  const sections = (...times: number[]) => times.map((time, index) => ({ time, index }));

  const mainShow: ShowSetList = {
    uid: uids.next(),
    name: 'Main show',
    tracks: [
      track('Preshow', 300, 'cut', {
        sections: sections(0, 120, 240),
        notes: [{ time: 0, text: 'House open' }, { time: 240, text: 'Five minute call' }],
        tags: [{ time: 0, type: 'TC', value: '10:00:00:00' }, { time: 120, type: 'CUE', value: 'Q1' }],
      }),
      track('Intro', 180, '1s', {
        sections: sections(0, 60, 120),
        notes: [{ time: 60, text: 'Lights cue 12' }],
        tags: [{ time: 0, type: 'TC', value: '10:05:00:00' }, { time: 60, type: 'CUE', value: 'Q2' }, { time: 120, type: 'MIDI', value: '36' }],
      }),
      track('Act 1', 900, '2s', {
        sections: sections(0, 300, 600),
        notes: [{ time: 300, text: 'Pyro standby' }],
        tags: [{ time: 0, type: 'TC', value: '10:08:00:00' }, { time: 300, type: 'CUE', value: 'Q3' }],
      }),
      track('Interval', 1200, 'cut', { notes: [{ time: 0, text: 'Interval' }], tags: [{ time: 0, type: 'CUE', value: 'Q4' }] }),
      track(
        'Finale',
        420,
        '2s',
        {
          sections: sections(0, 200),
          notes: [{ time: 200, text: 'Confetti' }],
          tags: [{ time: 0, type: 'TC', value: '10:45:00:00' }, { time: 200, type: 'CUE', value: 'Q5' }],
        },
        MAX_UINT64_UID,
      ),
    ],
  };
  const sideScreens: ShowSetList = {
    uid: uids.next(),
    name: 'Side screens',
    tracks: [
      track('Sponsors loop', 60, 'cut', { sections: sections(0, 30) }),
      track('Lyrics', 600, '1s', { sections: sections(0, 200, 400), tags: [{ time: 0, type: 'CUE', value: 'L1' }] }),
    ],
  };
  const lobby: ShowSetList = { uid: uids.next(), name: 'Lobby', tracks: [track('Lobby ambience', 3600, 'cut', {})] };

  const transport = (name: string, setList: ShowSetList, playmode: Playmode, uid = uids.next()): TransportModel => newTransport(uid, name, setList, playmode, now);
  const main = transport('main', mainShow, PLAYMODES.stop);
  const side = transport('side screens', sideScreens, PLAYMODES.loopSection, SIDE_SCREENS_UID);
  const lobbyTransport = { ...transport('lobby', lobby, PLAYMODES.stop), volume: 0.5, brightness: 0.8 };
  return {
    transports: [main, side, lobbyTransport],
    multitransports: [{ uid: uids.next(), name: 'stage', transportUids: [main.uid, side.uid] }],
    activeName: 'stage',
  };
}

/**
 * Transports past the demo show's, up to `total`: `transport 4`, `transport 5`, ... each stopped at the start of the
 * Main show set list (the same set list as `main`, so the track list does not grow), for a venue that watches many.
 */
export function moreTransports(show: ShowSeed, total: number, uids: UidSource, now: number): TransportModel[] {
  const mainShow = show.transports[0]?.setList;
  if (!mainShow) return [];
  return Array.from({ length: Math.max(0, total - show.transports.length) }, (_, index) =>
    newTransport(uids.next(), `transport ${show.transports.length + index + 1}`, mainShow, PLAYMODES.stop, now),
  );
}

function newTransport(uid: string, name: string, setList: ShowSetList, playmode: Playmode, now: number): TransportModel {
  return {
    uid,
    name,
    engaged: true,
    volume: 1,
    brightness: 1,
    receivingTimecode: false,
    setList,
    motion: { playhead: { trackIndex: 0, time: 0 }, playmode },
    settledAt: now,
  };
}
