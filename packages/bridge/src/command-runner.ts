import { reasonOf, type MediaServer } from '@stagelink/core';
import type { IncomingMessage } from './broker-link.js';
import { commandDeadline, type AgeRules } from './command-age.js';
import { COMMAND_REFUSALS, CommandRefusedError } from './command-errors.js';
import { failureResult, type CommandResult } from './command-result.js';
import { idOf, parseCommand, readEnvelope, readPayload, type BridgeCommand } from './commands.js';
import type { BridgeLog } from './log.js';
import { RecentIds } from './recent-ids.js';
import type { Topics } from './topics.js';

/** One command as the runner takes it, whichever way it came. */
export interface CommandRequest {
  /** The command below `cmd/`: `transport/<command>` or `failover/<operation>`. */
  path: string;
  /** Its fields and envelope (`id`, `sentAt`), as an MQTT command's JSON object carries them. */
  body: Record<string, unknown>;
  /** When the bridge received it, ms since the epoch. */
  receivedAt: number;
  /** The way it came, for the show log. */
  via: 'mqtt' | 'osc';
  /** A retained MQTT message: refused. */
  retain?: boolean;
  /** An MQTT 5 message expiry, in seconds. */
  messageExpiryInterval?: number;
}

export interface CommandRunnerOptions extends AgeRules {
  /** Ids remembered for duplicate detection (default 10,000). */
  rememberIds?: number;
}

/**
 * Takes cues from the command topics: each is checked whole (shape, age, confirmation) before anything is sent,
 * run once per id, and run in the order it arrived, one at a time, since cue order matters on a show. Every
 * message gets exactly one result, on its MQTT 5 response topic or on `<prefix>/result`.
 */
export class CommandRunner {
  readonly #recent: RecentIds<Promise<CommandResult>>;
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
    this.#recent = new RecentIds(rules.rememberIds ?? 10_000);
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
        retain: message.retain,
        ...(message.messageExpiryInterval === undefined ? {} : { messageExpiryInterval: message.messageExpiryInterval }),
      },
      send,
    );
  }

  /**
   * One command, from whichever way it came (MQTT, OSC): answered once through `send`, by the same rules. A
   * command whose id was seen lately gets the first one's result, marked `duplicate`, and is not run again.
   */
  submit(request: CommandRequest, send: (result: CommandResult) => void): void {
    const { body } = request;
    let outcome: Promise<CommandResult>;
    const id = idOf(body);
    const earlier = id === undefined ? undefined : this.#recent.get(id);
    if (earlier) {
      void earlier.then((result) => send({ ...result, duplicate: true }));
      return;
    }
    try {
      if (request.retain) throw new CommandRefusedError(COMMAND_REFUSALS.retained, 'A retained command was refused: it would fire whenever anything subscribes. Publish commands without the retain flag.');
      const envelope = readEnvelope(body);
      const command = parseCommand(request.path, body);
      const deadline = commandDeadline(envelope, request.receivedAt, request.messageExpiryInterval, this.rules);
      outcome = this.#enqueue(id, command, deadline);
    } catch (error) {
      outcome = Promise.resolve(failureResult(id, error));
    }
    if (id !== undefined) this.#recent.remember(id, outcome);
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
      } else if (command.operation === 'applydefaultrouting') {
        await this.mediaServer.failover.applyDefaultRouting(options);
      } else if (command.machine) {
        if (command.operation === 'failovermachine') await this.mediaServer.failover.failoverMachine(command.machine, options);
        else await this.mediaServer.failover.restoreMachine(command.machine, options);
      }
      return { id: id ?? null, ok: true };
    } catch (error) {
      const what = command.kind === 'transport' ? `transport/${command.command}` : `failover/${command.operation}`;
      this.log.warn('command failed', { command: what, ...(id === undefined ? {} : { id }), reason: reasonOf(error) });
      return failureResult(id, error);
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
