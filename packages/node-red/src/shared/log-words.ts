import { StagelinkError, type LogEvent } from '@stagelink/core';
import { sayError } from './error-words.js';
import { errorSummary } from './status.js';
import { hasWords, say } from './words.js';

/**
 * A warning core logs, in the runtime's language: `log.core.<code>` in the server node's catalog, worded from the
 * event's facts. Besides those, the words may use `message` (core's English text, what en-US says), `error` (the
 * failure behind it, worded in full) and `summary` (the same in the few words of a status line). A warning without
 * an event, or one the catalog has no words for, is core's message.
 */
export function sayLogEvent(message: string, event?: LogEvent): string {
  const key = `log.core.${event?.code}`;
  if (!event || !hasWords(key)) return message;
  const failure = event.error instanceof StagelinkError ? { error: sayError(event.error), summary: errorSummary(event.error) } : { error: event.facts.reason ?? message, summary: event.facts.reason ?? '' };
  return say(key, { ...event.facts, ...failure, message });
}
