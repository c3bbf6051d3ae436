/**
 * The power of each machine with a management controller in the settings, read from that controller every few
 * seconds (never from the director): whether the machine is on, and the power faults the SMC reports (shipping
 * SMCs report overload, main power and power control faults; the documents' answer only says on or off).
 */
import { AuthError, type MediaServer, type PowerStatus, powerFaultOf } from '@stagelink/core';
import { Poll } from './poll.js';

/** A machine's power changes by a press here or at the rack: a few seconds is soon enough, and light on the SMC. */
export const POWER_EVERY_MS = 5000;

/** Told after each read that says whether the SMC takes the account: the refusal, or undefined once it answered. */
export type LoginOutcome = (refusal: AuthError | undefined) => void;

export class PowerWatch {
  readonly status: Poll<PowerStatus>;

  constructor(
    readonly hostname: string,
    /** The variable id of the machine, given once for the session. */
    readonly id: string,
    server: MediaServer,
    onChange: () => void,
    onLogin: LoginOutcome,
  ) {
    this.status = new Poll(
      async (signal) => server.hardwareOf(hostname).chassis.powerStatus({ signal }),
      POWER_EVERY_MS,
      () => {
        const state = this.status.state;
        if (state.kind === 'answered') onLogin(undefined);
        else if (state.kind === 'failed' && state.error instanceof AuthError) onLogin(state.error);
        onChange();
      },
      // Asking again with an account the SMC refused could lock it out: the poll waits for a press or new settings.
      (error) => error instanceof AuthError,
    );
  }

  start(): void {
    this.status.start();
  }

  /** Reads again now, after a hardware action (one that went through also wakes a poll stopped by a refusal). */
  refresh(): void {
    this.status.refresh();
  }

  /** True when the SMC reports a power fault, false when it reports none, undefined when it does not report faults. */
  get fault(): boolean | undefined {
    const status = this.status.value;
    return status ? powerFaultOf(status) : undefined;
  }

  close(): void {
    this.status.close();
  }
}
