/** `POST /__sim/control` actions the drive port takes (the simulator README's Control section). */
export type ControlAction =
  | { action: 'latency'; ms: number }
  | { action: 'failNext'; status: number; count: number }
  | { action: 'addAsset'; versions: number }
  | { action: 'reset' };

export type ControlParse = { ok: true; action: ControlAction } | { ok: false; details: string };

const MAX_LATENCY_MS = 60_000;
/** Enough for listings of hundreds of pages while keeping the simulator's memory small. */
export const MAX_BULK_VERSIONS = 10_000;

export function parseControlAction(text: string): ControlParse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, details: 'The control body is not valid JSON.' };
  }
  const { action, ms, status, count = 1, versions } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (action === 'reset') return { ok: true, action: { action } };
  if (action === 'latency') {
    return isWholeNumber(ms, 0, MAX_LATENCY_MS)
      ? { ok: true, action: { action, ms } }
      : { ok: false, details: `latency needs "ms", a whole number from 0 to ${MAX_LATENCY_MS}.` };
  }
  if (action === 'failNext') {
    return isWholeNumber(status, 400, 599) && isWholeNumber(count, 0, 1000)
      ? { ok: true, action: { action, status, count } }
      : { ok: false, details: 'failNext needs "status" (400 to 599) and optionally "count" (0 to 1000, default 1).' };
  }
  if (action === 'addAsset') {
    return isWholeNumber(versions, 1, MAX_BULK_VERSIONS)
      ? { ok: true, action: { action, versions } }
      : { ok: false, details: `addAsset needs "versions", a whole number from 1 to ${MAX_BULK_VERSIONS}.` };
  }
  return { ok: false, details: 'Unknown action: the drive port takes "latency", "failNext", "addAsset" and "reset".' };
}

/** Injected latency and failures. A failure answers before the request is processed, so it changes nothing. */
export class DriveFaults {
  latencyMs = 0;
  #failStatus = 500;
  #failRemaining = 0;

  failNext(status: number, count: number): void {
    this.#failStatus = status;
    this.#failRemaining = count;
  }

  /** The status to answer instead of processing this request, when a failure is pending. */
  takeFailure(): number | undefined {
    if (this.#failRemaining === 0) return undefined;
    this.#failRemaining--;
    return this.#failStatus;
  }

  clear(): void {
    this.latencyMs = 0;
    this.#failRemaining = 0;
  }

  summary(): { latencyMs: number; failNext: { status: number; remaining: number } } {
    return { latencyMs: this.latencyMs, failNext: { status: this.#failStatus, remaining: this.#failRemaining } };
  }
}

function isWholeNumber(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
