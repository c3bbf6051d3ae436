/**
 * What stagelink writes to: Node-RED passes its node log, the Stream Deck plugin its SDK logger. A warning comes
 * with its event, so a front end with words of its own (Node-RED in German, say) can word it from the facts; the
 * message is core's English text of the same.
 */
export interface Logger {
  debug?(message: string): void;
  warn(message: string, event?: LogEvent): void;
}

/** Every warning core logs, by code. */
export const LOG_EVENT_CODES = [
  'DIRECTOR_MOVED',
  'DIRECTOR_UNREACHABLE_BY_NAME',
  'DIRECTOR_LISTENER_THREW',
  'DIRECTOR_CHECK_FAILED',
  'DNSSD_FAILED',
  'SHOW_CLOCK_PROBLEM',
  'SHOW_CLOCK_WATCHER_THREW',
  'HARDWARE_WATCHER_THREW',
  'LAYERS_WATCHER_THREW',
  'OLED_MESSAGE_CUT',
  'LIVE_DIRECTOR_LOOK_FAILED',
  'LIVE_CLOSE_FAILED',
  'LIVE_PROBLEM',
  'LIVE_PING_UNANSWERED',
] as const;

export type LogEventCode = (typeof LOG_EVENT_CODES)[number];

/** A warning as facts: what happened (`code`), the short texts it names, and the failure behind it, if any. */
export interface LogEvent {
  code: LogEventCode;
  facts: Record<string, string>;
  error?: unknown;
}

export const silentLogger: Logger = { warn: () => undefined };
