import { BadRequest } from './http-errors.js';
import type { Answer } from './routes/route.js';
import { describeJson, JsonFields } from './routes/json-fields.js';
import { Refusal } from './state/refusal.js';

export const CONTROL_PATH = '/__sim/control';

/** One control action: reads its parameters (BadRequest when they do not fit) and changes the simulator. */
export type ControlAction = (params: JsonFields) => void | Promise<void>;

/**
 * `POST /__sim/control` with `{"action": ..., ...params}`: a table of named actions, so other parts of the
 * simulator (live updates, the session scenario) add theirs with `register`, and their state with
 * `addSummaryPart`. Answers 200 with the state summary, 400 with `{message}` for an unknown action or bad
 * parameters.
 */
export class ControlPanel {
  readonly #actions = new Map<string, ControlAction>();
  readonly #summaryParts = new Map<string, () => unknown>();

  constructor(private readonly summarise: () => Record<string, unknown>) {}

  register(name: string, action: ControlAction): void {
    if (this.#actions.has(name)) throw new Error(`Control action "${name}" is registered twice.`);
    this.#actions.set(name, action);
  }

  /** Adds a field to every summary, such as `live` with the live-update server's socket counts. */
  addSummaryPart(name: string, part: () => unknown): void {
    if (this.#summaryParts.has(name)) throw new Error(`Summary part "${name}" is added twice.`);
    this.#summaryParts.set(name, part);
  }

  summary(): Record<string, unknown> {
    const summary = this.summarise();
    for (const [name, part] of this.#summaryParts) summary[name] = part();
    return summary;
  }

  get actionNames(): string[] {
    return [...this.#actions.keys()];
  }

  async handle(body: () => unknown): Promise<Answer> {
    try {
      const params = JsonFields.of(body(), '', 'The control request');
      const name = params.raw('action');
      const known = this.actionNames.join(', ');
      if (typeof name !== 'string') throw new BadRequest(`The control request needs "action", a string: one of ${known} (got ${describeJson(name)}).`);
      const action = this.#actions.get(name);
      if (!action) throw new BadRequest(`Unknown control action "${name}": use one of ${known}.`);
      await action(params);
      return { status: 200, body: this.summary() };
    } catch (error) {
      if (error instanceof BadRequest || error instanceof Refusal) return { status: 400, body: { message: error.message } };
      throw error;
    }
  }
}
