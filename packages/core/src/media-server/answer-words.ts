/**
 * Typed results in one vocabulary, whichever the server speaks: shipping directors report playmodes as enum
 * names and section indexes as numbers where the API documents write words and strings. Applied after the
 * answer's shape was checked, so the fields read here are there. A transport reported without its current track
 * or set list is read as one with none (`uid` empty: `0` is a real id), so no front end reads a field that is not
 * there.
 */
import { toPlaymode } from './playmode.js';
import type { Transport, TrackAnnotations } from './types.js';

type Normaliser = (result: unknown) => unknown;

const NO_TRACK = { uid: '', name: '' };

function withPlaymode(transport: Transport): Transport {
  const reported = transport as Partial<Transport>;
  return {
    ...transport,
    playmode: toPlaymode(transport.playmode),
    ...(isObject(reported.currentTrack) ? {} : { currentTrack: NO_TRACK }),
    ...(isObject(reported.setList) && Array.isArray(reported.setList.tracks) ? {} : { setList: { ...NO_TRACK, ...(isObject(reported.setList) ? reported.setList : {}), tracks: [] } }),
  };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

export const ACTIVE_TRANSPORT_WORDS: Normaliser = (result) => (Array.isArray(result) ? (result as Transport[]).map(withPlaymode) : result);

export const TRANSPORTS_WORDS: Normaliser = (result) => {
  const body = result as { transports: Transport[] };
  return { ...body, transports: body.transports.map(withPlaymode) };
};

export const ANNOTATIONS_WORDS: Normaliser = (result) => {
  const track = result as TrackAnnotations;
  const sections = track.annotations.sections.map((section) => ({ ...section, index: Number(section.index) }));
  return { ...track, annotations: { ...track.annotations, sections } };
};
