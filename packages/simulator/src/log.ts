/** One structured log line: what happened (`event`) and its facts. */
export type LogEntry = { event: string } & Record<string, unknown>;

export type LogSink = (entry: LogEntry) => void;

/** The default: tests and embedders hear nothing unless they ask. */
export const silentLog: LogSink = () => undefined;

/** One JSON object per line, `event` first, with the time. */
export function jsonLines(stream: NodeJS.WritableStream): LogSink {
  return ({ event, ...facts }) => {
    stream.write(`${JSON.stringify({ event, time: new Date().toISOString(), ...facts })}\n`);
  };
}
