import type { Logger } from '@stagelink/core';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

/** What the bridge writes to: one line per event, with its facts. */
export interface BridgeLog {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export type LogFormat = 'text' | 'json';

export const silentLog: BridgeLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Lines on a stream (stderr for the CLI): JSON lines for a log shipper, or plain `level event key=value` lines for
 * journald and a terminal. Every secret given is replaced by `***` wherever it appears, so a password that found
 * its way into an error message still never reaches the log.
 */
export function lineLog(stream: { write(line: string): unknown }, format: LogFormat, secrets: readonly string[] = []): BridgeLog {
  const hide = (text: string): string => secrets.filter((secret) => secret !== '').reduce((line, secret) => line.split(secret).join('***'), text);
  const write = (level: LogLevel, event: string, fields: LogFields = {}): void => {
    const line =
      format === 'json'
        ? JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })
        : `${level} ${event}${Object.entries(fields)
            .map(([key, value]) => ` ${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`)
            .join('')}`;
    stream.write(`${hide(line)}\n`);
  };
  return {
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
  };
}

/** Core's log lines (a director out of reach by name, live-update problems) as bridge log lines. */
export function coreLogger(log: BridgeLog): Logger {
  return { warn: (message) => log.warn('core', { message }) };
}

/** A broker URL as it may be logged: any password in it replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}
