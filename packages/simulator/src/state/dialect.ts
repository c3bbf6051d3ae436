import type { EndpointSpec, Envelope, HealthEntry, TrackAnnotations, Transport } from '@stagelink/core';
import type { Dialect } from '../options.js';
import { PLAYMODES, type Playmode } from './playmodes.js';
import { invalidArgument, StatusCode, type StatusCodeValue } from './refusal.js';

/** A transport as the wire carries it: its playmode in the dialect's words. */
export type WireTransport = Omit<Transport, 'playmode'> & { playmode: string };

/** Annotations as the wire carries them: section indexes as text (documents) or numbers (r34). */
export type WireAnnotations = Omit<TrackAnnotations, 'annotations'> & {
  annotations: Omit<TrackAnnotations['annotations'], 'sections'> & { sections: { time: number; index: string | number }[] };
};

/**
 * Everything that differs between the API documents' words and what a shipping r34 director says on the wire.
 * The session model keeps one vocabulary (the documents'); answers and requests pass through here.
 */
export interface DialectWords {
  readonly dialect: Dialect;
  /** The playmode a goto asks for; undefined keeps the transport's. Refuses words the dialect does not take. */
  requestedPlaymode: (text: string | undefined) => Playmode | undefined;
  /** The 0-based section index a gotosection names. */
  sectionIndex: (value: unknown) => number;
  /** Whether a goto's tag type names a tag of this type. */
  tagTypeMatches: (asked: string, tagType: string) => boolean;
  transport: (transport: WireTransport) => WireTransport;
  annotations: (annotations: TrackAnnotations) => WireAnnotations;
  health: (entries: HealthEntry[]) => HealthEntry[];
  /** The envelope of a refusal. */
  refusal: (code: StatusCodeValue, message: string) => Envelope;
  /** Whether this build has the endpoint at all: others answer 404. */
  offers: (endpoint: EndpointSpec) => boolean;
  /**
   * The body of a 404 or 405 on a session or service path: the documents show the envelope; a shipping build
   * answers a plain text (a string here).
   */
  notOffered: (status: 404 | 405, message: string) => Envelope | string;
  /** The hostnames machines report; undefined: the machines' addresses (and model-only names) stand in. */
  readonly hostnames?: MachineHostnames;
  /** Whether the hardware family is served by a management controller of its own, with an account. */
  readonly ownManagementController: boolean;
  /** The `message` of a hardware write's 401. */
  readonly loginRequired: string;
}

/** A hostname per part of the session: the director (or the solo machine), the actors, the understudies. */
export interface MachineHostnames {
  readonly director: string;
  readonly solo: string;
  readonly actors: readonly string[];
  readonly understudies: readonly string[];
}

/**
 * Shipping machines are named like Windows machines, which a control desk usually cannot resolve (no NetBIOS, no
 * mDNS): a client must keep using the address it was given, or be given a map from hostname to address.
 */
const R34_HOSTNAMES: MachineHostnames = { director: 'DIRECTOR01', solo: 'MEDIASERVER01', actors: ['ACTOR01', 'ACTOR02'], understudies: ['UNDERSTUDY01'] };

const R34_PLAYMODES: Readonly<Record<Playmode, string>> = {
  [PLAYMODES.play]: 'Play',
  [PLAYMODES.loopSection]: 'Loop',
  [PLAYMODES.playSection]: 'PlaySection',
  [PLAYMODES.stop]: 'Stop',
};

/** The documents' spellings, and the enum names core sends, case-insensitive. */
const SPEC_SPELLINGS: Readonly<Record<string, Playmode>> = {
  play: PLAYMODES.play,
  'loop section': PLAYMODES.loopSection,
  playloopsection: PLAYMODES.loopSection,
  loop: PLAYMODES.loopSection,
  'play to end of section': PLAYMODES.playSection,
  playsection: PLAYMODES.playSection,
  stop: PLAYMODES.stop,
};

/** r34 refuses invalid arguments and unknown references alike with code 4000; a disabled option with 1000. */
const R34_CODES: Partial<Record<StatusCodeValue, number>> = { [StatusCode.optionDisabled]: 1000 };

const SPEC: DialectWords = {
  dialect: 'spec',
  requestedPlaymode(text) {
    if (text === undefined || text.trim() === '' || text === 'NotSet') return undefined;
    const playmode = SPEC_SPELLINGS[text.trim().toLowerCase().replace(/\s+/g, ' ')];
    if (playmode) return playmode;
    throw invalidArgument(`Playmode "${text}" is not one of: ${Object.keys(SPEC_SPELLINGS).join(', ')}.`);
  },
  sectionIndex(value) {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^\d+$/.test(text.trim())) throw invalidArgument(`Section "${String(value)}" is not a section index (0, 1, 2, ...).`);
    return Number(text);
  },
  tagTypeMatches: (asked, tagType) => asked.toLowerCase() === tagType.toLowerCase(),
  transport: (transport) => transport,
  annotations: (annotations) => ({
    ...annotations,
    annotations: { ...annotations.annotations, sections: annotations.annotations.sections.map(({ time, index }) => ({ time, index: String(index) })) },
  }),
  health: (entries) => entries,
  refusal: (code, message) => ({ status: { code, message, details: [] } }),
  offers: (endpoint) => !endpoint.beyondSpec,
  notOffered: (status, message) => SPEC.refusal(status === 404 ? StatusCode.notFound : StatusCode.invalidArgument, message),
  ownManagementController: false,
  loginRequired: 'login required',
};

const R34: DialectWords = {
  dialect: 'r34',
  requestedPlaymode(text) {
    if (text === undefined || text === '' || text === 'NotSet') return undefined;
    const playmode = (Object.keys(R34_PLAYMODES) as Playmode[]).find((each) => R34_PLAYMODES[each] === text);
    if (playmode) return playmode;
    throw invalidArgument(`Invalid value for field 'playmode' of type PlayMode: "${text}" (NotSet, Play, PlaySection, Loop, Stop).`);
  },
  sectionIndex(value) {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
    throw invalidArgument("Invalid value for field 'section' of type uint64");
  },
  tagTypeMatches: (asked, tagType) => asked === tagType.toUpperCase() || (asked === 'TagType_Unknown' && !['TC', 'MIDI', 'CUE'].includes(tagType.toUpperCase())),
  transport: (transport) => ({ ...transport, playmode: R34_PLAYMODES[transport.playmode as Playmode] ?? transport.playmode }),
  annotations: (annotations) => annotations,
  health: (entries) =>
    entries.map((entry) => ({
      ...entry,
      status: {
        ...entry.status,
        states: entry.status.states.map((state) => ({
          ...state,
          category: state.category.toLowerCase(),
          severity: state.severity === 'ok' ? 'ready' : state.severity,
        })),
      },
    })),
  // Shipping directors leave `status.message` empty and give the reason only in the details.
  refusal: (code, message) => ({ status: { code: R34_CODES[code] ?? 4000, message: '', details: [{ message }] } }),
  // No shipping build has been seen with the documents' looks endpoint.
  offers: (endpoint) => endpoint.path !== '/api/session/looks',
  // Not an envelope: the web server answers before the API sees the request. The simulator's reason stays readable.
  notOffered: (_status, message) => message,
  hostnames: R34_HOSTNAMES,
  // The hardware family lives on each machine's SMC, on the management network, behind HTTP Basic.
  ownManagementController: true,
  loginRequired: 'Login required',
};

export function dialectWords(dialect: Dialect): DialectWords {
  return dialect === 'r34' ? R34 : SPEC;
}
