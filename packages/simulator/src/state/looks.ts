import type { Look } from '@stagelink/core';

/** The project's looks; the API only reads them. */
export class Looks {
  constructor(private readonly looks: readonly Look[]) {}

  list(): Look[] {
    return structuredClone([...this.looks]);
  }
}
