/**
 * The fields of the answers front ends read (dropdowns, key faces, status lines), checked once here so no
 * front end dereferences a field a broken or foreign server left out. A check names the first field that is
 * wrong, with where it sits (`at`, empty for the whole body), or returns undefined. Only what callers read is
 * checked; other fields pass as they are.
 */
export type AnswerShape = (value: unknown, at: string) => string | undefined;

const ofKind =
  (kind: 'string' | 'boolean'): AnswerShape =>
  (value, at) =>
    typeof value === kind ? undefined : `${where(at)} is ${described(value)}, not a ${kind}`;

const text = ofKind('string');
/** A decimal index as the documents write it ("2") or as shipping directors send it (2). */
const index: AnswerShape = (value, at) =>
  (typeof value === 'number' && Number.isInteger(value) && value >= 0) || (typeof value === 'string' && /^\d+$/.test(value))
    ? undefined
    : `${where(at)} is ${described(value)}, not a section index`;
const flag = ofKind('boolean');
/** Seconds on a track: the clock sorts and subtracts them, so text or a missing time would make it say NaN. */
const seconds: AnswerShape = (value, at) => (typeof value === 'number' && Number.isFinite(value) ? undefined : `${where(at)} is ${described(value)}, not a time in seconds`);

function fields(shape: Record<string, AnswerShape>): AnswerShape {
  return (value, at) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where(at)} is ${described(value)}, not an object`;
    for (const [name, check] of Object.entries(shape)) {
      const problem = check((value as Record<string, unknown>)[name], at === '' ? name : `${at}.${name}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

function listOf(item: AnswerShape): AnswerShape {
  return (value, at) => {
    if (!Array.isArray(value)) return `${where(at)} is ${described(value)}, not a list`;
    for (const [index, entry] of value.entries()) {
      const problem = item(entry, `${at}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** Absent when the spec allows it (a solo machine has no director); when there, it has the shape. */
function optional(shape: AnswerShape): AnswerShape {
  return (value, at) => (value === undefined || value === null ? undefined : shape(value, at));
}

function where(at: string): string {
  return at === '' ? 'the answer' : at;
}

function described(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}

const machine = fields({ hostname: text });
const named = fields({ name: text });

export const HEALTH_ANSWER = listOf(
  fields({ machine, runningAsMachine: machine, status: fields({ states: listOf(fields({ severity: text })) }) }),
);

export const SESSION_ANSWER = fields({
  isRunningSolo: flag,
  director: optional(machine),
  actors: listOf(machine),
  understudies: listOf(machine),
});

export const TRACKS_ANSWER = listOf(named);

const transport = fields({ name: text, playmode: text });

export const ACTIVE_TRANSPORT_ANSWER = listOf(transport);

export const TRANSPORTS_ANSWER = fields({
  transports: listOf(transport),
  multitransports: listOf(fields({ name: text, transports: listOf(text) })),
});

export const ANNOTATIONS_ANSWER = fields({
  annotations: fields({
    sections: listOf(fields({ index, time: seconds })),
    notes: listOf(fields({ text, time: seconds })),
    tags: listOf(fields({ type: text, value: text, time: seconds })),
  }),
});
