/**
 * What the connected director offers, from its own description of its API (`ms.describe()`): read when the
 * connection starts, again when the director moves or its live stream comes back (a restart or a project reload
 * may change the build), never at a press. Reading it through core also lets core refuse, unsent, a command the
 * description lacks. A build without a description offers what the API documents list: nothing is marked then.
 */
import { type DirectorDescription, type EndpointSpec, type Logger, type MediaServer, NotOfferedError, reasonOf } from '@stagelink/core';

export class OfferedCommands {
  #description: DirectorDescription | undefined;
  #described = new Set<string>();
  /** Counts the reads: an answer to an older one (the director has moved since) is dropped. */
  #generation = 0;
  #closed = false;

  constructor(
    private readonly server: MediaServer,
    private readonly logger: Logger,
    /** Told when what the director offers may have changed. */
    private readonly onChange: () => void,
  ) {}

  /** Reads the description (core shares one read per director); what was read before holds until it answers. */
  read(): void {
    if (this.#closed) return;
    const generation = ++this.#generation;
    this.server.describe().then(
      (description) => this.#settle(generation, description),
      (error: unknown) => {
        if (error instanceof NotOfferedError) return this.#settle(generation, undefined);
        // Not an answer: the next connect or director move asks again; until then nothing is marked anew.
        if (!this.#closed) this.logger.debug?.(`Reading what the director offers: ${reasonOf(error)}`);
      },
    );
  }

  /** The director moved: what the old one described tells nothing of the new one until it is read. */
  forget(): void {
    this.#generation += 1;
    if (this.#description) this.#settle(this.#generation, undefined);
  }

  /**
   * The description's API version ('' when it gives none) when the director does not offer `spec`; undefined
   * when it does, or when nothing says otherwise (not read yet, no description). The description covers the
   * session family only: the service and hardware families count as offered.
   */
  notOffered(spec: Pick<EndpointSpec, 'method' | 'path' | 'family'>): string | undefined {
    if (!this.#description || spec.family !== 'session') return undefined;
    return this.#described.has(`${spec.method} ${spec.path}`.toLowerCase()) ? undefined : (this.#description.version ?? '');
  }

  close(): void {
    this.#closed = true;
  }

  #settle(generation: number, description: DirectorDescription | undefined): void {
    if (this.#closed || generation !== this.#generation) return;
    const before = keyOf(this.#description);
    this.#description = description;
    this.#described = new Set((description?.commands ?? []).map(({ method, path }) => `${method} ${path}`.toLowerCase()));
    // Only a change of what is offered redefines the actions.
    if (keyOf(description) !== before) this.onChange();
  }
}

function keyOf(description: DirectorDescription | undefined): string {
  if (!description) return '';
  return `${description.version ?? ''}\n${description.commands.map(({ method, path }) => `${method} ${path}`).join('\n')}`;
}
