/**
 * Typed results in one vocabulary, whichever the server speaks: shipping directors report playmodes as enum
 * names and section indexes as numbers where the API documents write words and strings. Applied after the
 * answer's shape was checked, so the fields read here are there.
 */
import { toPlaymode } from './playmode.js';
import type { Transport, TrackAnnotations } from './types.js';

type Normaliser = (result: unknown) => unknown;

const withPlaymode = (transport: Transport): Transport => ({ ...transport, playmode: toPlaymode(transport.playmode) });

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
