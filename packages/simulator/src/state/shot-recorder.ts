import type { ShotRecorder } from '@stagelink/core';
import { failedPrecondition, invalidArgument } from './refusal.js';

export interface RecordRequest {
  engage: boolean;
  name?: string;
  slate?: string;
  take?: number;
}

/**
 * The session's shot recorder. Engaging starts a take with the given name, slate and take number (omitted ones
 * keep their value); engaging while recording is refused; disengaging stops and is harmless when stopped.
 */
export class ShotRecorders {
  readonly #recorder: ShotRecorder;

  constructor(recorder: ShotRecorder) {
    this.#recorder = { ...recorder };
  }

  recorders(): ShotRecorder[] {
    return [{ ...this.#recorder }];
  }

  record(request: RecordRequest): void {
    const recorder = this.#recorder;
    if (!request.engage) {
      recorder.engaged = false;
      return;
    }
    if (recorder.engaged) {
      throw failedPrecondition(`Already recording "${recorder.name}", slate ${recorder.slate}, take ${recorder.take}: stop it first (engage: false).`);
    }
    const take = request.take ?? recorder.take;
    if (!Number.isInteger(take) || take < 0) throw invalidArgument(`Take ${take} is not a whole number of 0 or more.`);
    Object.assign(recorder, { engaged: true, name: request.name ?? recorder.name, slate: request.slate ?? recorder.slate, take });
  }
}
