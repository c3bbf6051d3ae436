import { Throttle, type Clock } from '@stagelink/core';
import type { FpsPayload } from './fps-throttle.js';
import { payloadOf, type BridgeAdapter, type Member, type StateEvent } from './session-events.js';
import type { StaleReason } from './stale-reasons.js';
import { topicSegment } from './topics.js';
import type { ClockPayload } from './transport-clocks.js';

/** One machine's FPS as its `machines/<hostname>/fps` topic says it, stale mark and reason included. */
export type SummaryFps = Pick<FpsPayload, 'value' | 'average' | 'alert' | 'stale' | 'reason'>;

/** One machine's health severity as its `machines/<hostname>/health` topic says it, without the states behind it. */
export interface SummaryHealth {
  severity: string;
  stale?: true;
  reason?: StaleReason;
}

/** A machine in the summary: what the bridge has seen of it so far, each part with its own stale mark. */
export interface MachineSummary {
  fps?: SummaryFps;
  health?: SummaryHealth;
}

/**
 * `<prefix>/summary`: every machine, keyed as its topics are (`machines/<key>/...`), once the bridge has a
 * transport's clock, every transport's clock keyed as its topic is (`transports/<key>/clock`), and once it has a
 * RenderStream layer, every layer's workload keyed as its topic is (`renderstream/<key>`).
 */
export interface SummaryPayload {
  machines: Record<string, MachineSummary>;
  transports?: Record<string, ClockPayload>;
  renderstream?: Record<string, Record<string, unknown>>;
}

/**
 * The dashboard topic: every machine's FPS and health in one message, and every transport's clock, for a show
 * monitor that watches them all. It follows the machine and clock topics (fed what they publish, stale marks
 * included) and goes out at most once a period: the first change after a quiet period at once, later ones collapsed
 * into the newest state when the period ends, so the last state always goes out. It is fed only what changed one of
 * those topics: a period without a change publishes nothing.
 */
export class DashboardSummary implements BridgeAdapter {
  readonly #machines = new Map<string, MachineSummary>();
  readonly #clocks = new Map<string, ClockPayload>();
  readonly #layers = new Map<string, Record<string, unknown>>();
  readonly #throttle: Throttle<void>;

  constructor(
    periodMs: number,
    private readonly publish: (payload: SummaryPayload) => void,
    clock?: Clock,
  ) {
    this.#throttle = new Throttle(() => this.#send(), periodMs, clock);
  }

  fps(hostname: string, { value, average, alert, stale, reason }: SummaryFps): void {
    this.#update(hostname, { fps: { value, average, alert, ...marks(stale, reason) } });
  }

  health(hostname: string, { severity, stale, reason }: SummaryHealth): void {
    this.#update(hostname, { health: { severity, ...marks(stale, reason) } });
  }

  /** A transport's clock as its topic says it, stale mark included. */
  clock(name: string, payload: ClockPayload): void {
    this.#clocks.set(topicSegment(name), payload);
    this.#throttle.push();
  }

  /** A machine's FPS or health, a transport's clock: the parts the summary follows. */
  state(event: StateEvent): void {
    const payload = payloadOf(event);
    if (event.what === 'machine' && event.part === 'fps') this.fps(event.which, payload as unknown as SummaryFps);
    else if (event.what === 'machine' && event.part === 'health') this.health(event.which, payload as unknown as SummaryHealth);
    else if (event.what === 'transport' && event.part === 'clock') this.clock(event.which, payload as unknown as ClockPayload);
    else if (event.what === 'layer') {
      this.#layers.set(topicSegment(event.which), payload);
      this.#throttle.push();
    }
  }

  /** A machine that left the session, a transport no longer in the project, a layer gone: the summary goes on without it. */
  removed({ what, which }: Member): void {
    const from = what === 'machine' ? this.#machines : what === 'transport' ? this.#clocks : this.#layers;
    if (from.delete(topicSegment(which))) this.#throttle.push();
  }

  close(): void {
    this.#throttle.close();
  }

  #update(hostname: string, part: MachineSummary): void {
    const key = topicSegment(hostname);
    this.#machines.set(key, { ...this.#machines.get(key), ...part });
    this.#throttle.push();
  }

  #send(): void {
    this.publish({
      machines: Object.fromEntries(this.#machines),
      ...(this.#clocks.size > 0 && { transports: Object.fromEntries(this.#clocks) }),
      ...(this.#layers.size > 0 && { renderstream: Object.fromEntries(this.#layers) }),
    });
  }
}

/** Only a stale part carries the keys: a live one has neither, as on the machine topics. */
function marks(stale: true | undefined, reason: StaleReason | undefined): { stale?: true; reason?: StaleReason } {
  if (stale !== true) return {};
  return reason === undefined ? { stale } : { stale, reason };
}
