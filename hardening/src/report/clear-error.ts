import * as core from '@stagelink/core';

/** The names of stagelink's error classes: an error of one of these was explained by stagelink. */
export const STAGELINK_ERROR_NAMES: ReadonlySet<string> = new Set(
  Object.entries(core)
    .filter(([, value]) => typeof value === 'function' && (value === core.StagelinkError || value.prototype instanceof core.StagelinkError))
    .map(([name]) => name),
);

/**
 * A clear error is one stagelink recognised and explained: a StagelinkError (its `toString()`, which
 * Node-RED puts in msg.error.message, starts with the class name) with a message of a few words at least.
 * A TypeError or RangeError escaping from inside means an input reached code that did not expect it.
 */
export function isClearErrorText(text: string): boolean {
  // The head is enough, and a regular expression over a megabyte of text can exhaust the stack.
  const match = /^(\w+): (.{10,})/s.exec(text.slice(0, 1000));
  return match !== null && STAGELINK_ERROR_NAMES.has(match[1] ?? '');
}

export function isClearError(error: unknown): boolean {
  return error instanceof core.StagelinkError && error.message.length >= 10 && STAGELINK_ERROR_NAMES.has(error.name);
}

/** A short, single-line form of an error text for a finding. */
export function brief(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** What an engine says when code met a value it did not expect: never an explanation for a user. */
const ENGINE_ERROR = /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|is not a constructor|Maximum call stack|Invalid array length|\[object Object\]/;

/**
 * A clear message where only the text reaches the user (a property inspector's line): a few words at least,
 * and not a JavaScript engine's error text.
 */
export function isClearMessage(text: unknown): boolean {
  return typeof text === 'string' && text.trim().length >= 10 && !ENGINE_ERROR.test(text);
}
