// Types for start-options.mjs (plain JavaScript, so `pnpm start` runs it without a build).
export const START_USAGE: string;
/** The flags `pnpm start` takes, as node:util's parseArgs reads them. */
export const START_OPTIONS: Record<string, { type: 'string' | 'boolean'; short?: string }>;
export class StartOptionError extends Error {}
export type StartOptions =
  | { help: true }
  | { help: false; listen: string; port: number; simPort: number; drivePort: number; dataDir: string | undefined; dialect: string | undefined };
export function parseStartArgs(argv: readonly string[]): StartOptions;
export function isLoopback(address: string): boolean;
export function isEveryInterface(address: string): boolean;
