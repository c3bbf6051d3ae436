/**
 * Frames of the live-update WebSocket (`/api/session/liveupdate`), as real servers speak them: the API documents
 * show only `subscribe` and `valuesChanged` (docs/api-notes.md, "Live update"). Shared by the client and the
 * simulator.
 */

export const LIVE_UPDATE_PATH = '/api/session/liveupdate';

export interface SubscribeFrame {
  subscribe: {
    object: string;
    properties: string[];
    configuration?: { updateFrequencyMs: number };
  };
}

/** `{ids: [...]}` is what most clients send; `{id}` is also seen in the field. */
export interface UnsubscribeFrame {
  unsubscribe: { ids: number[] } | { id: number };
}

/**
 * Writes a value through a subscription id. No acknowledgement: the new value comes back as `valuesChanged`.
 * Objects merge (`{"x": 0.1}` changes only `x`); numbers are stored as 32-bit floats.
 */
export interface SetFrame {
  set: { id: number; value: unknown }[];
}

export type ClientFrame = SubscribeFrame | UnsubscribeFrame | SetFrame;

export interface SubscriptionEntry {
  /** `0` is a valid id. */
  id: number;
  objectPath: string;
  propertyPath: string;
}

export interface ValueChange {
  id: number;
  value: unknown;
  changeTimestamp?: number;
  messageTimestamp?: number;
}

/** Keys may arrive together or in separate frames. */
export interface ServerFrame {
  /** The FULL list of this socket's subscriptions, resent after every subscribe and unsubscribe. */
  subscriptions?: SubscriptionEntry[];
  valuesChanged?: ValueChange[];
  /** A request-level failure, e.g. `Unable to subscribe to OBJECT / PROPERTY - reason`. */
  error?: string;
}

/** A property that failed to evaluate arrives as a value of this shape. */
export interface PropertyErrorValue {
  errorType: string;
  message: string;
}

export function isPropertyError(value: unknown): value is PropertyErrorValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PropertyErrorValue).errorType === 'string' &&
    typeof (value as PropertyErrorValue).message === 'string'
  );
}
