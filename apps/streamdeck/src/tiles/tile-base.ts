/**
 * What every tile holds: the frames it shows (the newest wins, nothing while hidden), its hold on the server of
 * its host, the log of why it cannot work, and the poll it watches. A tile inside a multi-action is never on
 * screen, so it never shows a frame. Disposing lets go of all of it.
 */
import type { HostChoice, JsonObject } from '../settings.js';
import type { PollState, SharedPoll } from '../state/connection/shared-poll.js';
import { FramePresenter } from '../state/frames/frame-presenter.js';
import { HostBinding, hostProblem, type Binding } from './host-binding.js';
import { ReasonLog } from './reason-log.js';
import type { Tile, TileContext } from './tile.js';

export type BoundHost = Extract<Binding, { kind: 'bound' }>;

export abstract class TileBase<S extends JsonObject> implements Tile<S> {
  protected readonly presenter: FramePresenter;
  protected readonly binding: HostBinding;
  protected readonly reasons: ReasonLog;
  protected disposed = false;
  #stopWatching: (() => void) | undefined;

  /** `draw` hands a frame to the key or the touch strip, at most one per `minFrameIntervalMs` (4 a second by default). */
  constructor(
    draw: (frame: string) => void,
    protected readonly context: TileContext,
    minFrameIntervalMs?: number,
  ) {
    this.presenter = new FramePresenter(draw, minFrameIntervalMs);
    this.binding = new HostBinding(context.pool);
    this.reasons = new ReasonLog(context.logger, () => this.subject);
    if (context.visible) this.presenter.appear();
  }

  /** Which key the log's lines are about: "Health key SESSION". */
  protected abstract get subject(): string;

  abstract configure(settings: S, host: HostChoice): void;

  dispose(): void {
    this.disposed = true;
    this.stop();
    this.binding.release();
    this.presenter.dispose();
  }

  /** Lets go of what the tile follows besides its host: the poll it watches, subscriptions, timers. */
  protected stop(): void {
    this.unwatch();
  }

  /**
   * The tile's hold on the server of `host`. Without one the tile stops, and shows `faces.setUp` when the
   * address is missing or malformed (the log says which), or `faces.waiting` while the global settings are on
   * their way.
   */
  protected bindHost(host: HostChoice, faces: { setUp: string; waiting: string }): BoundHost | undefined {
    const binding = this.binding.bind(host);
    if (binding.kind === 'bound') return binding;
    this.stop();
    const problem = hostProblem(binding);
    if (problem) this.reasons.tell(problem, true);
    this.presenter.show(problem ? faces.setUp : faces.waiting);
    return undefined;
  }

  /** The tile cannot work as it is set: it lets go of its server, logs why and shows `face` (SET UP). */
  protected setUp(problem: string, face: string): void {
    this.stop();
    this.binding.release();
    this.reasons.tell(problem, true);
    this.presenter.show(face);
  }

  /**
   * Keeps the tile on `poll` of its host. On a new host, or with nothing followed yet, it follows the poll when
   * `wanted` (the first call comes at once with the poll's state); otherwise it renders the poll's state now.
   */
  protected keepFollowing<T>(binding: BoundHost, poll: SharedPoll<T>, render: (state: PollState<T>) => void, wanted: boolean): void {
    if (binding.changed || !this.#stopWatching) {
      this.unwatch();
      if (wanted) {
        this.follow(poll, render);
        return;
      }
    }
    render(poll.state);
  }

  protected follow<T>(poll: SharedPoll<T>, render: (state: PollState<T>) => void): void {
    this.unwatch();
    this.#stopWatching = poll.watch(render);
  }

  protected unwatch(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }
}
