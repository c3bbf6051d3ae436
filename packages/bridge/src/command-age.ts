import { COMMAND_REFUSALS, CommandRefusedError } from './command-errors.js';
import type { CommandEnvelope } from './commands.js';

export interface AgeRules {
  maxAgeMs: number;
  acceptUntimed: boolean;
}

/**
 * The time (ms since the epoch) after which a command must no longer run, or a refusal when it is already too old:
 * a cue held by a client or a broker through an outage must never fire late.
 *
 * - `sentAt` is the sender's clock: the command is refused once it is older than the maximum age (or when it
 *   claims to be from further ahead than that, a sender whose clock is wrong).
 * - An MQTT 5 message expiry is counted down by the broker while it holds the message, so it bounds the age too;
 *   an expiry longer than the maximum age would let the broker deliver it late, and is refused.
 * - With neither, nothing tells a fresh command from a held one: refused unless untimed commands are accepted.
 */
export function commandDeadline(envelope: CommandEnvelope, receivedAt: number, expirySeconds: number | undefined, rules: AgeRules): number {
  const { maxAgeMs } = rules;
  if (envelope.sentAt !== undefined) {
    const age = receivedAt - envelope.sentAt;
    if (age > maxAgeMs) {
      throw new CommandRefusedError(COMMAND_REFUSALS.tooOld, `The command was sent ${Math.round(age)} ms ago: commands older than ${maxAgeMs} ms are refused, so that no cue fires late. Nothing was sent.`);
    }
    if (-age > maxAgeMs) {
      throw new CommandRefusedError(COMMAND_REFUSALS.tooOld, `sentAt is ${Math.round(-age)} ms ahead of the bridge's clock: check the sender's clock (NTP). Nothing was sent.`);
    }
    return envelope.sentAt + maxAgeMs;
  }
  if (expirySeconds !== undefined) {
    const limitSeconds = Math.ceil(maxAgeMs / 1000);
    if (expirySeconds > limitSeconds) {
      throw new CommandRefusedError(
        COMMAND_REFUSALS.tooOld,
        `The command's message expiry is ${expirySeconds} s: the broker could hold it that long, and commands older than ${maxAgeMs} ms are refused. Set an expiry of at most ${limitSeconds} s, or send sentAt. Nothing was sent.`,
      );
    }
    return receivedAt + Math.min(expirySeconds * 1000, maxAgeMs);
  }
  if (!rules.acceptUntimed) {
    throw new CommandRefusedError(
      COMMAND_REFUSALS.untimed,
      'The command says neither when it was sent ("sentAt", ms since the epoch) nor when it expires (an MQTT 5 message expiry): a cue held through a broker outage could fire late, so it was not sent.',
    );
  }
  return receivedAt + maxAgeMs;
}
