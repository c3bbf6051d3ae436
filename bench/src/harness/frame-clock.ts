import WebSocket from 'ws';

const MARKER = Buffer.from('"messageTimestamp":');

/**
 * When the server sent the live-update frame being handled right now, from its `messageTimestamp` (seconds).
 * Core hands its consumers values without timestamps, so while installed this looks at every frame as `ws`
 * emits it, before core or a raw client parses it, and both sides pay the same for it. A consumer calls
 * `latencyMs()` from inside its callback, which runs while that frame is handled.
 */
export class FrameClock {
  sentAtMs = Number.NaN;
  framesSeen = 0;

  /**
   * Wall-clock time now minus the frame's send time. The simulator stamps whole milliseconds (Date.now()), so
   * each latency reads up to 1 ms long, the same for every consumer; the receiving side has sub-millisecond time.
   */
  latencyMs(): number {
    return performance.timeOrigin + performance.now() - this.sentAtMs;
  }

  /** Starts watching every WebSocket of this process; answers the function that stops it. */
  install(): () => void {
    const prototype = WebSocket.prototype as unknown as { emit: (event: string | symbol, ...args: unknown[]) => boolean };
    const emit = prototype.emit;
    const onFrame = (data: unknown): void => {
      this.framesSeen++;
      this.sentAtMs = Buffer.isBuffer(data) ? messageTimestampMs(data) : Number.NaN;
    };
    prototype.emit = function (this: WebSocket, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'message') onFrame(args[0]);
      return emit.call(this, event, ...args);
    };
    return () => {
      prototype.emit = emit;
    };
  }
}

/** The first `messageTimestamp` of a frame, in milliseconds; NaN when it has none. */
function messageTimestampMs(frame: Buffer): number {
  const at = frame.indexOf(MARKER);
  if (at < 0) return Number.NaN;
  const start = at + MARKER.length;
  let end = start;
  while (end < frame.length && isNumberByte(frame[end] ?? 0)) end++;
  return Number(frame.toString('latin1', start, end)) * 1000;
}

/** Digits, '.', '-', 'e', '+'. */
function isNumberByte(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || byte === 0x2e || byte === 0x2d || byte === 0x65 || byte === 0x2b;
}
