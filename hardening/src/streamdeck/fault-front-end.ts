import { MediaServer } from '@stagelink/core';
import type { CommandOutcome, FaultFrontEnd, LiveMark, TurnOutcome } from '../faults/front-end.js';
import type { FaultServer } from '../faults/steps.js';
import type { FaultTargets } from '../faults/targets.js';
import { waitUntil } from '../support/time.js';
import { ACTIONS, launchDeck, LIVE_FPS, type LaunchedDeck } from './deck.js';
import { levelPercent, turnDial } from './dial-turn.js';

const SERVERS: readonly FaultServer[] = ['machine', 'session'];
/** Cue keys per server: presses go round them, so each key's answers can be counted against its presses. */
const CUE_KEYS = 4;
/** Longer than the plugin's request deadline (4 s) with the director check and retries on top. */
const ANSWER_LIMIT_MS = 30_000;

/** The plugin with, for each server, cue keys (play main) and an FPS key, each key naming its server. */
export class DeckFaultFrontEnd implements FaultFrontEnd {
  readonly name = 'stream deck';
  /**
   * The session's keys are on the plugin's global address, the session's first director, with the session's other
   * machines as backup addresses: those find a director whose name does not resolve. (A hosts map would not do: in
   * r34 the lone machine and the session use the same names, `DIRECTOR01`, and the map is global.)
   */
  readonly followsUnresolvedDirector = true;
  readonly #pressed = new Map<string, number>();

  /** The harness stamps commands with ms since it started: this turns a stamp into Date.now() time. */
  readonly #clockOffset: number;

  private constructor(
    readonly launched: LaunchedDeck,
    /** Reads what the servers really have, to compare with what the dials show. */
    private readonly readers: Record<FaultServer, MediaServer>,
  ) {
    const latest = launched.deck.commands.at(-1);
    this.#clockOffset = Date.now() - (latest?.at ?? 0);
  }

  static async launch(targets: FaultTargets): Promise<DeckFaultFrontEnd> {
    const backupHosts = targets.sessionBackupUrls();
    const launched = await launchDeck(targets.sessionSeedUrl, backupHosts);
    // The machine's keys name it; the session's keys leave the address to the global one.
    const keyHost: Record<FaultServer, { host?: string }> = { machine: { host: targets.machine.url }, session: {} };
    SERVERS.forEach((server, row) => {
      for (let index = 0; index < CUE_KEYS; index++) {
        launched.deck.appear({ action: ACTIONS.transport, context: `cue-${server}-${index}`, settings: { command: 'play', transport: 'main', ...keyHost[server] }, column: index, row });
      }
      launched.deck.appear({ action: ACTIONS.fps, context: `fps-${server}`, settings: { target: 60, ...keyHost[server] }, column: CUE_KEYS, row });
      launched.deck.appear({ action: ACTIONS.level, context: `level-${server}`, controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.01, ...keyHost[server] }, column: row });
    });
    const reader = (host: string, backups: readonly string[] = []): MediaServer => new MediaServer({ host, followDirector: true, backupHosts: backups, timeoutMs: 2000, retries: 0 });
    return new DeckFaultFrontEnd(launched, { machine: reader(targets.machine.url), session: reader(targets.sessionSeedUrl, backupHosts) });
  }

  turnDial(server: FaultServer, index: number): Promise<TurnOutcome> {
    return turnDial(this.launched.deck, `level-${server}`, index % 2 === 0 ? 1 : -1, () => levelPercent(this.readers[server], 'lobby', 'volume'), ANSWER_LIMIT_MS);
  }

  async command(server: FaultServer, index: number): Promise<CommandOutcome> {
    const context = `cue-${server}-${index % CUE_KEYS}`;
    const press = (this.#pressed.get(context) ?? 0) + 1;
    this.#pressed.set(context, press);
    this.launched.deck.press(context);
    const answered = await waitUntil(() => this.#answersOf(context) >= press, ANSWER_LIMIT_MS, 100);
    return answered ? this.#lastAnswerOf(context) : 'silent';
  }

  #answersOf(context: string): number {
    return this.launched.deck.sent('showOk', context).length + this.launched.deck.sent('showAlert', context).length;
  }

  /**
   * Whether the latest answer on the key was OK or an alert. Presses on one key can overlap during a stall,
   * so the split between OK and alert is approximate; the count of answers against presses is exact.
   */
  #lastAnswerOf(context: string): CommandOutcome {
    const answers = this.launched.deck.commands.filter((command) => command.context === context && (command.event === 'showOk' || command.event === 'showAlert'));
    return answers.at(-1)?.event === 'showOk' ? 'ack' : 'error';
  }

  /** Presses and answers over all cue keys: unanswered presses are silent losses, extra answers a finding. */
  balance(): { pressed: number; answered: number } {
    let pressed = 0;
    let answered = 0;
    for (const [context, count] of this.#pressed) {
      pressed += count;
      answered += this.#answersOf(context);
    }
    return { pressed, answered };
  }

  mark(): Promise<LiveMark> {
    const position: Record<string, number> = {};
    for (const server of SERVERS) position[server] = this.launched.deck.images(`fps-${server}`).length;
    return Promise.resolve({ at: Date.now(), position });
  }

  /** The first live FPS frame after `since`, by the time the plugin sent it (not when the suite looked). */
  async liveResumed(server: FaultServer, since: LiveMark, limitMs: number): Promise<number | undefined> {
    const context = `fps-${server}`;
    const firstLive = (): number | undefined => {
      const index = this.#imagesSince(server, since).findIndex((svg) => LIVE_FPS.test(svg));
      if (index === -1) return undefined;
      const frame = this.launched.deck.sent('setImage', context)[(since.position[server] ?? 0) + index];
      return frame === undefined ? undefined : frame.at + this.#clockOffset;
    };
    const at = await waitUntil(firstLive, limitMs, 100);
    return at === undefined ? undefined : Math.max(0, at - since.at);
  }

  showedOffline(server: FaultServer, since: LiveMark): Promise<boolean> {
    return Promise.resolve(this.#imagesSince(server, since).some((svg) => svg.includes('NO LINK')));
  }

  alive(): Promise<boolean> {
    return Promise.resolve(this.launched.alive());
  }

  async release(): Promise<void> {
    for (const context of this.launched.deck.keys.keys()) this.launched.deck.disappear(context);
    await Promise.all(Object.values(this.readers).map((reader) => reader.close()));
  }

  #imagesSince(server: FaultServer, since: LiveMark): string[] {
    return this.launched.deck.images(`fps-${server}`).slice(since.position[server] ?? 0);
  }
}
