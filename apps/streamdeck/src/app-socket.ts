/**
 * The Stream Deck SDK's socket to the app, made observable. The SDK opens it with `new WebSocket(...)` from
 * `ws`, has no reconnect and never listens for `close`; the rollup build points the SDK's `ws` import here
 * (see rollup.config.mjs), so this class is the one it constructs. Nothing else uses it.
 */
import WebSocket from 'ws';

type Listener = (reason: string) => void;

const closeListeners = new Set<Listener>();
let closedReason: string | undefined;

/** Calls `listener` once when the socket to the Stream Deck app closes (at once if it already has). */
export function onAppSocketClosed(listener: Listener): void {
  if (closedReason !== undefined) {
    listener(closedReason);
    return;
  }
  closeListeners.add(listener);
}

function announceClosed(reason: string): void {
  if (closedReason !== undefined) return;
  closedReason = reason;
  for (const listener of closeListeners) {
    try {
      listener(reason);
    } catch {
      // A listener that throws must not keep the others from running: exiting is what matters here.
    }
  }
  closeListeners.clear();
}

export default class AppSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    // Without an 'error' listener ws would throw a refused connection as an uncaught exception.
    this.on('error', (error) => announceClosed(`socket error: ${error.message}`));
    this.on('close', (code) => announceClosed(`closed with code ${code}`));
  }
}

export { WebSocket };
