import type { BodyField } from '@stagelink/core';

/** A command a later build describes and serves, beyond core's catalogue. */
export interface LaterCommand {
  method: 'GET' | 'POST';
  /** The whole path, e.g. `/api/session/renderstream/layerhealth`. */
  path: string;
  summary: string;
  /** Its body's fields, as the description types them. */
  body?: Readonly<Record<string, BodyField>>;
}

/**
 * Commands of a build newer than core's catalogue (`describeCommand`): the description lists them and the session
 * answers them with success, echoing the body it took, so a client can send what it does not know by path.
 */
export class LaterCommands {
  readonly #commands = new Map<string, LaterCommand>();

  add(command: LaterCommand): void {
    this.#commands.set(`${command.method} ${command.path}`, command);
  }

  find(method: string, path: string): LaterCommand | undefined {
    return this.#commands.get(`${method} ${path}`);
  }

  list(): LaterCommand[] {
    return [...this.#commands.values()];
  }
}
