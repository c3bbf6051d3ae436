import { reasonOf, type CallOptions, type MediaServer, type Ref, type RenderStreamLayer } from '@stagelink/core';
import type { IncomingMessage } from './broker-link.js';
import { commandDeadline, type AgeRules } from './command-age.js';
import { COMMAND_REFUSALS, CommandRefusedError } from './command-errors.js';
import { failureResult, type CommandResult } from './command-result.js';
import { idOf, parseCommand, readEnvelope, readPayload, type BridgeCommand } from './commands.js';
import type { BridgeLog } from './log.js';
import { RecentIds } from './recent-ids.js';
import type { RenderStreamOffer } from './renderstream-layers.js';
import type { Topics } from './topics.js';

/** One command as the runner takes it, whichever way it came. */
export interface CommandRequest {
  /** The command below `cmd/`: `transport/<command>`, `failover/<operation>` or `renderstream/<layer>/<op>`. */
  path: string;
  /** Its fields and envelope (`id`, `sentAt`), as an MQTT command's JSON object carries them. */
  body: Record<string, unknown>;
  /** When the bridge received it, ms since the epoch. */
  receivedAt: number;
  /** The way it came, for the show log. */
  via: 'mqtt' | 'osc';
  /**
   * Who sent it, as far as the way it came tells: an OSC sender's address, an MQTT 5 sender's response topic (MQTT
   * gives subscribers no sender's identity). Ids are remembered per sender: two desks may both use `go-12`.
   */
  sender: string;
  /** A retained MQTT message: refused. */
  retain?: boolean;
  /** An MQTT 5 message expiry, in seconds. */
  messageExpiryInterval?: number;
}

/** The director's RenderStream layers as last read, which `cmd/renderstream/<layer>/<op>` names. */
export interface CommandLayers {
  readonly offer: RenderStreamOffer;
  readonly names: readonly string[];
  bySegment(segment: string): RenderStreamLayer | undefined;
}

export interface CommandRunnerOptions extends AgeRules {
  /** At most this many ids are remembered for duplicate detection (default 10,000), each for the age window. */
  rememberIds?: number;
  /** The session's RenderStream layers; without them every RenderStream command is answered as not offered. */
  layers?: CommandLayers;
}

/**
 * How long a command's id is remembered: twice the maximum age. A copy that could still pass the age rule comes
 * within it (a sender's clock may be up to the maximum age ahead or behind); a fixed id sent again later on purpose
 * (a QLab cue, a TouchOSC button pressed again) runs again.
 */
export function idWindowMs(maxAgeMs: number): number {
  return 2 * maxAgeMs;
}

/**
 * Takes cues from the command topics: each is checked whole (shape, age, confirmation) before anything is sent,
 * run once per id, and run in the order it arrived, one at a time, since cue order matters on a show. Every
 * message gets exactly one result, on its MQTT 5 response topic or on `<prefix>/result`.
 */
export class CommandRunner {
  readonly #recent: RecentIds<true>;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly mediaServer: MediaServer,
    private readonly topics: Topics,
    private readonly rules: CommandRunnerOptions,
    private readonly reply: (topic: string, result: CommandResult, correlationData?: Buffer) => void,
    private readonly afterCue: () => void,
    private readonly log: BridgeLog,
    private readonly onResult: (request: CommandRequest, result: CommandResult) => void = () => {},
  ) {
    this.#recent = new RecentIds(rules.rememberIds ?? 10_000, idWindowMs(rules.maxAgeMs));
  }

  handle(message: IncomingMessage): void {
    const receivedAt = Date.now();
    const replyTo = this.#responseTopic(message.responseTopic);
    const send = (result: CommandResult): void => this.reply(replyTo, result, message.correlationData);
    let body: Record<string, unknown>;
    try {
      body = readPayload(message.payload);
    } catch (error) {
      send(failureResult(undefined, error));
      return;
    }
    this.submit(
      {
        path: message.topic.slice(this.topics.commandRoot.length),
        body,
        receivedAt,
        via: 'mqtt',
        sender: `mqtt ${replyTo}`,
        retain: message.retain,
        ...(message.messageExpiryInterval === undefined ? {} : { messageExpiryInterval: message.messageExpiryInterval }),
      },
      send,
    );
  }

  /**
   * One command, from whichever way it came (MQTT, OSC): answered once through `send`, by the same rules. A copy
   * of a command its sender sent with the same id within the age window is not run again, and is answered as a
   * duplicate (`ok` false, with the reason), never as a success.
   */
  submit(request: CommandRequest, send: (result: CommandResult) => void): void {
    const { body } = request;
    let outcome: Promise<CommandResult>;
    const id = idOf(body);
    const key = id === undefined ? undefined : `${request.sender}\n${id}`;
    const earlier = key === undefined ? undefined : this.#recent.seen(key);
    if (id !== undefined && earlier) {
      const ago = Math.max(0, request.receivedAt - earlier.at);
      const windowMs = idWindowMs(this.rules.maxAgeMs);
      send({
        ...failureResult(
          id,
          new CommandRefusedError(
            COMMAND_REFUSALS.duplicate,
            `A copy of command ${JSON.stringify(id)} from this sender came ${ago} ms ago and was taken: this one was not run. The same id runs again once ${windowMs} ms have passed; give each press its own id to run it sooner.`,
          ),
        ),
        duplicate: true,
      });
      return;
    }
    try {
      if (request.retain) throw new CommandRefusedError(COMMAND_REFUSALS.retained, 'A retained command was refused: it would fire whenever anything subscribes. Publish commands without the retain flag.');
      const envelope = readEnvelope(body);
      const command = parseCommand(request.path, body);
      const deadline = commandDeadline(envelope, request.receivedAt, request.messageExpiryInterval, this.rules);
      outcome = this.#enqueue(id, command, deadline);
      // Only a command taken is remembered: one refused before sending (unconfirmed, malformed, too old) may be
      // corrected and sent again with its id.
      if (key !== undefined) this.#recent.remember(key, true);
    } catch (error) {
      outcome = Promise.resolve(failureResult(id, error));
    }
    void outcome.then((result) => {
      this.onResult(request, result);
      send(result);
    });
  }

  /** Resolves when every command taken so far has its result. */
  async drain(): Promise<void> {
    this.#closed = true;
    await this.#queue;
  }

  #enqueue(id: string | undefined, command: BridgeCommand, deadline: number): Promise<CommandResult> {
    const run = this.#queue.then(() => this.#execute(id, command, deadline));
    this.#queue = run;
    return run;
  }

  async #execute(id: string | undefined, command: BridgeCommand, deadline: number): Promise<CommandResult> {
    const left = deadline - Date.now();
    if (this.#closed) return failureResult(id, new CommandRefusedError(COMMAND_REFUSALS.tooOld, 'The bridge is stopping: the command was not sent.'));
    if (left <= 0) {
      return failureResult(id, new CommandRefusedError(COMMAND_REFUSALS.tooOld, 'The command waited behind earlier ones past its maximum age, so it was not sent.'));
    }
    // Retries stop at the command's deadline: a cue is never sent late.
    const options = { timeoutMs: Math.max(100, left) };
    try {
      if (command.kind === 'transport') {
        await this.mediaServer.transport.send(command.command, command.transports, command.fields, options);
        this.afterCue();
      } else if (command.kind === 'renderstream') {
        await this.#renderStream(command, options);
      } else if (command.operation === 'applydefaultrouting') {
        await this.mediaServer.failover.applyDefaultRouting(options);
      } else if (command.machine) {
        if (command.operation === 'failovermachine') await this.mediaServer.failover.failoverMachine(command.machine, options);
        else await this.mediaServer.failover.restoreMachine(command.machine, options);
      }
      return { id: id ?? null, ok: true };
    } catch (error) {
      const what = command.kind === 'transport' ? `transport/${command.command}` : command.kind === 'renderstream' ? `renderstream/${command.layer}/${command.operation}` : `failover/${command.operation}`;
      this.log.warn('command failed', { command: what, ...(id === undefined ? {} : { id }), reason: reasonOf(error) });
      return failureResult(id, error);
    }
  }

  /**
   * A layer's workload started, stopped, restarted or synced. The layer is matched to the director's list by the
   * segment its own topic has, and sent by uid; before the list was first read it is sent by the name as given, and
   * the director says whether it has it. `stop` reached here only with `confirm: true` (parseCommand).
   */
  async #renderStream({ operation, layer: segment }: Extract<BridgeCommand, { kind: 'renderstream' }>, options: CallOptions): Promise<void> {
    const layers = this.rules.layers;
    if (!layers || layers.offer === 'not offered') {
      throw new CommandRefusedError(COMMAND_REFUSALS.notOffered, `This director does not offer RenderStream: renderstream/${segment}/${operation} was not sent.`);
    }
    const layer = layers.bySegment(segment);
    if (!layer && layers.offer === 'offered') {
      const listed = layers.names.length === 0 ? 'it lists none' : `it lists ${layers.names.map((name) => JSON.stringify(name)).join(', ')}`;
      throw new CommandRefusedError(COMMAND_REFUSALS.unknownLayer, `No RenderStream layer "${segment}" on this director (${listed}): nothing was sent.`);
    }
    const request = { layers: [layer ? ({ uid: layer.uid } as Ref) : { name: segment }] };
    const renderstream = this.mediaServer.renderstream;
    switch (operation) {
      case 'start':
        return renderstream.startLayers(request, options);
      case 'stop':
        return renderstream.stopLayers(request, { ...options, confirm: true });
      case 'restart':
        return renderstream.restartLayers(request, options);
      case 'sync':
        return renderstream.syncLayers(request, options);
    }
  }

  /**
   * Where a result goes: the command's MQTT 5 response topic when it is a topic the bridge may publish on (no
   * wildcards, no system topic, none of the bridge's own state or command topics), else `<prefix>/result`.
   */
  #responseTopic(requested: string | undefined): string {
    const { prefix, result } = this.topics;
    if (typeof requested !== 'string' || requested === '' || requested.length > 1024) return result;
    if (/[+#]/.test(requested) || requested.includes('\u0000') || requested.startsWith('$')) return result;
    if ((requested === prefix || requested.startsWith(`${prefix}/`)) && requested !== result && !requested.startsWith(`${result}/`)) return result;
    return requested;
  }
}
