/** What stagelink writes to: Node-RED passes its node log, the Stream Deck plugin its SDK logger. */
export interface Logger {
  debug?(message: string): void;
  warn(message: string): void;
}

export const silentLogger: Logger = { warn: () => undefined };
