/** What the bare relay (bare-relay.ts, a child process) is told, and how it asks for FPS. */

export interface RelayConfig {
  director: string;
  /** The director's own hostname: its FPS is its local monitor. */
  directorHostname: string;
  broker: string;
  prefix: string;
  updateFrequencyMs: number;
}

/**
 * The bridge's property without its space: the same values, but the director's log of sends keeps the relay's
 * apart from the bridge's (both sample one signal, so a value can reach both at different times).
 */
export const RELAY_FPS_PROPERTY = 'object.seriesAverage("Actual",1)';
