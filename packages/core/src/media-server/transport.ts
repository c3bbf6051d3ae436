import { AbortedError, InvalidInputError, isUnreachable, LateAnswerError, reasonOf, StagelinkError, TimeoutError } from '../errors.js';
import { endpoints, type EndpointSpec } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { asArray, checkBoolean, checkLevel, checkNumber, checkRef, checkText, refQuery, shown } from './input-checks.js';
import { askedOf, LATE_ANSWER_CHECK_MS, lateVerdict, type LateVerdict } from './late-answer.js';
import { playmodeToSend } from './playmode.js';
import { transportCommandNamed, type OperationWord } from './operation-names.js';
import { requiredField, TRANSPORT_COMMAND_NAMES, type TransportCommand, type TransportCommandFields } from './transport-commands.js';
import { TransportMemory, type TransportsBefore } from './transport-memory.js';
import type { ShowClocks } from '../show-clock/show-clocks.js';
import type { ShowClockSnapshot, TransportWatch, WatchOptions } from '../show-clock/transport-clock.js';
import type { Multitransport, Ref, SetList, Track, TrackAnnotations, Transport } from './types.js';

/**
 * Where a goto command leaves the transport: a Playmode in any case, or the documents' words (`play`, `loop
 * section`, `play to end of section`); sent as the enum name. Left out, the transport keeps its play state.
 */
export interface TransportCue {
  transport: Ref;
  playmode?: string;
}

export interface GotoTrack extends TransportCue {
  track: Ref;
}
export interface GotoFrame extends TransportCue {
  frame: number;
}
export interface GotoNote extends TransportCue {
  note: string;
}
export interface GotoSection extends TransportCue {
  /** The 0-based index of the section in the current track, as a number or decimal text. */
  section: number | string;
}
export interface GotoTag extends TransportCue {
  /** `TC`, `MIDI`, `CUE` or `TagType_Unknown`, in any case. */
  type: string;
  value: string;
  allowGlobalJump?: boolean;
}
export interface GotoTime extends TransportCue {
  time: number;
}
export interface GotoTimecode extends TransportCue {
  timecode: string;
  ignoreTags?: boolean;
}
export interface SetVolume {
  transport: Ref;
  volume: number;
}
export interface SetBrightness {
  transport: Ref;
  brightness: number;
}
export interface SetEngaged {
  transport: Ref;
  engaged: boolean;
}
export interface SetSpeed {
  transport: Ref;
  /** 1 is normal speed. Directors refuse it unless the project enables transport speed control. */
  speed: number;
}

type OneOrMany<T> = T | readonly T[];

/**
 * Transport commands. Each takes one item or an array, so one request can cue several transports at once. A cue
 * whose answer does not come within its deadline is never sent again: the transports are read once more, and the
 * cue fails with a LateAnswerError that says whether it landed (see lateVerdict).
 */
export class TransportApi {
  constructor(
    private readonly api: EndpointCaller,
    /** What the client last read of the transports: the state before a cue, for a cue whose answer comes late. */
    private readonly memory: TransportMemory,
    private readonly clocks: ShowClocks,
  ) {}

  /**
   * The transport's show clock: playhead, section, next section, cues and what remains of each, from the live
   * stream and the track's annotations; `current` moves on with the playhead between updates while the clock is
   * `online`. One live subscription group per transport, whatever the number of watchers or the form of ref. A
   * multitransport's clock reads its first member's player and is named as the multitransport. Close it when no
   * longer shown. Throws a ClosedError once the client is closed.
   */
  watch(transport: Ref, onChange: (snapshot: ShowClockSnapshot) => void, options?: WatchOptions): TransportWatch {
    return this.clocks.watch(transport, onChange, options);
  }

  async activeTransport(options?: CallOptions): Promise<Transport[]> {
    return this.api.call(endpoints.activeTransport, {}, options);
  }

  async annotations(track: Ref, options?: CallOptions): Promise<TrackAnnotations> {
    return this.api.call(endpoints.annotations, { query: refQuery(track, 'track') }, options);
  }

  async setLists(options?: CallOptions): Promise<SetList[]> {
    return this.api.call(endpoints.setLists, {}, options);
  }

  async tracks(options?: CallOptions): Promise<Track[]> {
    return this.api.call(endpoints.tracks, {}, options);
  }

  async transports(options?: CallOptions): Promise<{ transports: Transport[]; multitransports: Multitransport[] }> {
    const read = this.memory.reading();
    const answer = await this.api.call<{ transports: Transport[]; multitransports: Multitransport[] }>(endpoints.transports, {}, options);
    read(answer.transports);
    return answer;
  }

  async play(transports: OneOrMany<Ref>, options?: CallOptions): Promise<void> {
    return this.#sendRefs(endpoints.play, transports, options);
  }
  async stop(transports: OneOrMany<Ref>, options?: CallOptions): Promise<void> {
    return this.#sendRefs(endpoints.stop, transports, options);
  }
  async playSection(transports: OneOrMany<Ref>, options?: CallOptions): Promise<void> {
    return this.#sendRefs(endpoints.playSection, transports, options);
  }
  async playLoopSection(transports: OneOrMany<Ref>, options?: CallOptions): Promise<void> {
    return this.#sendRefs(endpoints.playLoopSection, transports, options);
  }
  async returnToStart(transports: OneOrMany<Ref>, options?: CallOptions): Promise<void> {
    return this.#sendRefs(endpoints.returnToStart, transports, options);
  }

  async gotoTrack(cues: OneOrMany<GotoTrack>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoTrack, cues, options, (cue) => ({ track: checkRef(cue.track, 'track') }));
  }
  async gotoFrame(cues: OneOrMany<GotoFrame>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoFrame, cues, options, (cue) => ({ frame: checkNumber(cue.frame, 'frame') }));
  }
  async gotoNote(cues: OneOrMany<GotoNote>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoNote, cues, options, noteField);
  }
  async gotoSection(cues: OneOrMany<GotoSection>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoSection, cues, options, sectionField);
  }
  async gotoTag(cues: OneOrMany<GotoTag>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoTag, cues, options, (cue) => ({
      type: tagTypeToSend(cue.type),
      value: checkText(cue.value, 'tag value'),
      allowGlobalJump: cue.allowGlobalJump ?? false,
    }));
  }
  async gotoTime(cues: OneOrMany<GotoTime>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoTime, cues, options, (cue) => ({ time: checkNumber(cue.time, 'time') }));
  }
  async gotoTimecode(cues: OneOrMany<GotoTimecode>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoTimecode, cues, options, (cue) => ({
      timecode: checkText(cue.timecode, 'timecode'),
      ignoreTags: cue.ignoreTags ?? false,
    }));
  }
  async gotoNextTrack(cues: OneOrMany<TransportCue>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoNextTrack, cues, options, () => ({}));
  }
  async gotoPrevTrack(cues: OneOrMany<TransportCue>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoPrevTrack, cues, options, () => ({}));
  }
  async gotoNextSection(cues: OneOrMany<TransportCue>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoNextSection, cues, options, () => ({}));
  }
  async gotoPrevSection(cues: OneOrMany<TransportCue>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.gotoPrevSection, cues, options, () => ({}));
  }

  async setVolume(items: OneOrMany<SetVolume>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.volume, items, options, (item) => ({ volume: checkLevel(item.volume, 'volume') }));
  }
  async setBrightness(items: OneOrMany<SetBrightness>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.brightness, items, options, (item) => ({
      brightness: checkLevel(item.brightness, 'brightness'),
    }));
  }
  async setEngaged(items: OneOrMany<SetEngaged>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.engaged, items, options, (item) => ({ engaged: checkBoolean(item.engaged, 'engaged') }));
  }
  /**
   * Engages the transport when the server reports it disengaged, and disengages it when engaged: read at the call,
   * never from a reading seconds old (another desk may have changed it), then sent as `engaged`. A multitransport
   * counts as engaged when the server says so. Part of a cue: like the command, the read is refused at once while
   * the server is known not to answer. A transport the server does not list is refused with InvalidInputError, and
   * nothing is sent. Resolves with the state sent.
   */
  async toggleEngaged(transport: Ref, options?: CallOptions): Promise<boolean> {
    const { uid, name } = checkRef(transport, 'transport');
    const { transports, multitransports } = await this.transports(cueOptions(options));
    // A uid names one object; a name, as the user typed it, the one listed under it.
    const current = [...transports, ...multitransports].find((candidate) => (uid === undefined ? candidate.name === name : candidate.uid === uid));
    if (!current) throw new InvalidInputError(`Transport ${shown(name ?? uid)} is not on the server, so it was not toggled: check the transport's name.`);
    const engaged = !current.engaged;
    await this.setEngaged({ transport, engaged }, options);
    return engaged;
  }
  async setSpeed(items: OneOrMany<SetSpeed>, options?: CallOptions): Promise<void> {
    return this.#sendCues(endpoints.speed, items, options, (item) => ({ speed: checkNumber(item.speed, 'speed') }));
  }

  /**
   * Sends a transport command by its spec path name (`play`, `gototrack`, `volume`, ...; a method name such as
   * `gotoTrack` or `setVolume` is read as the same command) to one or more transports, with the fields
   * TRANSPORT_COMMANDS says it needs: what front ends driven by settings use. gotosection and gotonote given a
   * `track` go to that track first (see #afterTrack).
   */
  async send(name: OperationWord<TransportCommand>, transports: OneOrMany<Ref>, fields: TransportCommandFields = {}, options?: CallOptions): Promise<void> {
    const command = transportCommandNamed(name);
    if (!command) {
      throw new InvalidInputError(`"${String(name)}" is not a transport command: use one of ${TRANSPORT_COMMAND_NAMES.join(', ')}.`);
    }
    const need = <F extends keyof TransportCommandFields>(field: F) => requiredField(command, fields, field);
    const each = <T>(extra: T) => asArray(transports).map((transport) => ({ transport, ...extra }));
    const cue = <T>(extra: T) => each({ ...extra, ...(fields.playmode === undefined ? {} : { playmode: fields.playmode }) });
    switch (command) {
      case 'play':
        return this.play(transports, options);
      case 'stop':
        return this.stop(transports, options);
      case 'playsection':
        return this.playSection(transports, options);
      case 'playloopsection':
        return this.playLoopSection(transports, options);
      case 'returntostart':
        return this.returnToStart(transports, options);
      case 'gotonexttrack':
        return this.gotoNextTrack(cue({}), options);
      case 'gotoprevtrack':
        return this.gotoPrevTrack(cue({}), options);
      case 'gotonextsection':
        return this.gotoNextSection(cue({}), options);
      case 'gotoprevsection':
        return this.gotoPrevSection(cue({}), options);
      case 'gototrack':
        return this.gotoTrack(cue({ track: need('track') }), options);
      case 'gotosection': {
        const section = need('section');
        const body = cueBody(endpoints.gotoSection, cue({ section }), sectionField);
        return this.#afterTrack(transports, fields.track, `section ${section}`, options, endpoints.gotoSection, body);
      }
      case 'gotonote': {
        const note = need('note');
        const body = cueBody(endpoints.gotoNote, cue({ note }), noteField);
        return this.#afterTrack(transports, fields.track, `note ${shown(note)}`, options, endpoints.gotoNote, body);
      }
      case 'gototag':
        return this.gotoTag(cue({ type: need('tagType'), value: need('tagValue'), allowGlobalJump: fields.allowGlobalJump ?? false }), options);
      case 'gototime':
        return this.gotoTime(cue({ time: need('time') }), options);
      case 'gototimecode':
        return this.gotoTimecode(cue({ timecode: need('timecode'), ignoreTags: fields.ignoreTags ?? false }), options);
      case 'gotoframe':
        return this.gotoFrame(cue({ frame: need('frame') }), options);
      case 'volume':
        return this.setVolume(each({ volume: need('volume') }), options);
      case 'brightness':
        return this.setBrightness(each({ brightness: need('brightness') }), options);
      case 'engaged':
        return this.setEngaged(each({ engaged: need('engaged') }), options);
      case 'speed':
        return this.setSpeed(each({ speed: need('speed') }), options);
    }
  }

  /**
   * Sends a cue that acts on the current track, going to `track` first when one is given: gototrack with no
   * playmode, so playing or stopped stays as it was until the cue's own playmode. When the track step fails
   * nothing more is sent; either step's error says which step it was. The cue's `body` is checked before either
   * step.
   */
  async #afterTrack(
    transports: OneOrMany<Ref>,
    track: Ref | undefined,
    target: string,
    options: CallOptions | undefined,
    spec: EndpointSpec,
    body: CueBody,
  ): Promise<void> {
    if (track === undefined) return this.#post(spec, body, options);
    const { name, uid } = checkRef(track, 'track');
    const trackName = shown(name ?? uid);
    try {
      await this.gotoTrack(asArray(transports).map((transport) => ({ transport, track })), options);
    } catch (error) {
      const step = error instanceof LateAnswerError ? 'answered late' : 'failed';
      throw withStep(error, `Going to track ${trackName} ${step}, so ${target} was not sent`);
    }
    try {
      await this.#post(spec, body, options);
    } catch (error) {
      throw withStep(error, `Went to track ${trackName}, but going to ${target} failed`);
    }
  }

  // Not async, as one step less per cue: called only from the async commands, which turn a refused input into a rejection.
  #sendRefs(spec: EndpointSpec, transports: OneOrMany<Ref>, options?: CallOptions): Promise<void> {
    const refs = nonEmpty(asArray(transports), spec).map((ref) => checkRef(ref, 'transport'));
    return this.#post(spec, { transports: refs }, options);
  }

  #sendCues<C extends Cue>(spec: EndpointSpec, cues: OneOrMany<C>, options: CallOptions | undefined, fields: (cue: C) => Record<string, unknown>): Promise<void> {
    return this.#post(spec, cueBody(spec, cues, fields), options);
  }

  async #post(spec: EndpointSpec, body: CueBody | { transports: Ref[] }, options: CallOptions | undefined): Promise<void> {
    const before = this.memory.before();
    try {
      await this.api.call(spec, { body }, cueOptions(options));
    } catch (error) {
      // A cue refused before it went out (the link down, no director found in time) was not late: it was not sent.
      if (!(error instanceof TimeoutError) || !error.mayHaveReachedServer) throw error;
      throw await this.#lateAnswer(spec, body.transports, before, error, options);
    }
  }

  /**
   * Why a cue that got no answer in time failed, after one re-read of the transports within LATE_ANSWER_CHECK_MS:
   * a LateAnswerError when the machine answers it, the cue's own TimeoutError when it does not (the machine is
   * not answering at all: a front end shows it offline).
   */
  async #lateAnswer(spec: EndpointSpec, items: readonly unknown[], before: TransportsBefore, timeout: TimeoutError, options: CallOptions | undefined): Promise<Error> {
    const command = spec.path.slice(spec.path.lastIndexOf('/') + 1) as TransportCommand;
    let verdict: LateVerdict;
    try {
      const { transports } = await this.transports({ signal: options?.signal, timeoutMs: LATE_ANSWER_CHECK_MS });
      verdict = lateVerdict(askedOf(command, items), before.transports, transports, this.memory.movesSince(before) - 1);
    } catch (error) {
      if (isUnreachable(error) || error instanceof AbortedError) return timeout;
      verdict = { outcome: 'unknown', why: `reading the transports again failed too (${reasonOf(error)})` };
    }
    const where = `${timeout.method ?? spec.method} ${timeout.url ?? spec.path}`;
    const message =
      verdict.outcome === 'landed'
        ? `${where} got no answer within ${timeout.timeoutMs} ms, but it landed: ${verdict.why}. It was not sent again.`
        : `${where} got no answer within ${timeout.timeoutMs} ms, and whether it landed is unknown: ${verdict.why}. It was not sent again: check the transport before you send it again.`;
    const context = timeout.method && timeout.url ? { method: timeout.method, url: timeout.url } : undefined;
    return new LateAnswerError(message, verdict.outcome, timeout.timeoutMs, context, { cause: timeout });
  }
}

interface Cue {
  transport: Ref;
  playmode?: string;
}

interface CueBody {
  transports: Record<string, unknown>[];
}

/** The body of a cue command: every cue checked, its fields in the server's words. */
function cueBody<C extends Cue>(spec: EndpointSpec, cues: OneOrMany<C>, fields: (cue: C) => Record<string, unknown>): CueBody {
  const transports = nonEmpty(asArray(cues), spec).map((cue) => ({
    transport: checkRef(cue.transport, 'transport'),
    ...fields(cue),
    ...(cue.playmode === undefined ? {} : { playmode: playmodeToSend(cue.playmode) }),
  }));
  return { transports };
}

/** A cue fails at once while the server is known not to answer, unless the caller asks otherwise. */
function cueOptions(options: CallOptions | undefined): CallOptions {
  return { failFast: true, ...options };
}

/**
 * Directors take a section by its 0-based index (and refuse a name); sent as decimal text, which both the
 * documents' string field and shipping builds' uint64 field accept.
 */
const sectionField = (cue: GotoSection) => ({ section: sectionIndex(cue.section) });

function sectionIndex(section: unknown): string {
  if (typeof section === 'number' && Number.isSafeInteger(section) && section >= 0) return String(section);
  if (typeof section === 'string' && /^\s*\d+\s*$/.test(section)) return String(Number(section));
  if (typeof section === 'string' && section.trim() !== '') {
    throw new InvalidInputError(`section takes a 0-based section index (0, 1, 2, ...), not the name ${shown(section)}: to jump to a name, use gotonote.`);
  }
  throw new InvalidInputError(`section must be a 0-based section index (0, 1, 2, ...) (got ${shown(section)}).`);
}

/** Tag types are an enum on the wire; a goto takes them in any case. */
export const TAG_TYPES = ['TC', 'MIDI', 'CUE', 'TagType_Unknown'] as const;

function tagTypeToSend(type: unknown): string {
  const wanted = checkText(type, 'tag type').trim().toLowerCase();
  const sent = TAG_TYPES.find((tagType) => tagType.toLowerCase() === wanted || (wanted === 'unknown' && tagType === 'TagType_Unknown'));
  if (!sent) throw new InvalidInputError(`tag type ${shown(type)} is not one of ${TAG_TYPES.join(', ')}.`);
  return sent;
}
const noteField = (cue: GotoNote) => ({ note: checkText(cue.note, 'note') });

function nonEmpty<T>(items: T[], spec: EndpointSpec): T[] {
  if (items.length === 0) throw new InvalidInputError(`${spec.path} needs at least one transport.`);
  return items;
}

/** The same error (its class tells offline from refused), its message prefixed with the step that failed. */
function withStep(error: unknown, step: string): Error {
  if (!(error instanceof Error)) return new StagelinkError(`${step}: ${String(error)}`, undefined, { cause: error });
  error.message = `${step}: ${error.message}`;
  return error;
}
