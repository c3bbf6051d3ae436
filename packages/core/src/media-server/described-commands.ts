import { InvalidInputError, NotDescribedError, NotOfferedError } from '../errors.js';
import type { HttpClient } from '../http/http-client.js';
import { readApiDescription, type ApiDescription } from './api-description.js';
import { bodyProblems } from './body-check.js';
import { endpointList, type EndpointSpec, type HttpMethod } from './catalogue.js';
import type { CallOptions } from './endpoint-caller.js';

/** One command the director describes. */
export interface DescribedCommand {
  method: string;
  /** As the description gives it, e.g. `/api/session/renderstream/restartlayers`. */
  path: string;
  summary: string;
  /** In core's catalogue: a typed method sends it; otherwise `ms.call` by path. */
  known: boolean;
}

/** What `ms.describe()` answers: the director's own list of commands. */
export interface DirectorDescription {
  title?: string;
  version?: string;
  commands: DescribedCommand[];
}

/** The description's commands, each marked whether core's catalogue knows it. */
export function describedCommands(description: ApiDescription): DescribedCommand[] {
  const known = new Set(endpointList.map((endpoint) => `${endpoint.method} ${endpoint.path}`.toLowerCase()));
  return description.operations.map((operation) => {
    const [method = '', path = ''] = operation.split(' ');
    return { method, path, summary: description.summaries[operation] ?? '', known: known.has(operation.toLowerCase()) };
  });
}

/** A command named by its method and path, as `ms.describe()` lists it: `renderstream/restartlayers` or the whole path. */
export interface CommandName {
  /** GET or POST; POST when left out (every command a director describes beyond the documents is one). */
  method?: string;
  path: string;
}

/** The method and whole path of a command named by an operator; InvalidInputError for what no command can be. */
export function commandOf(command: CommandName): { method: HttpMethod; path: string } {
  const method = (typeof command?.method === 'string' ? command.method : 'POST').trim().toUpperCase();
  if (method !== 'GET' && method !== 'POST') throw new InvalidInputError(`A command's method is GET or POST (got ${JSON.stringify(command?.method)}).`);
  const path = typeof command?.path === 'string' ? command.path.trim() : '';
  if (!/^[\w/{}.-]+$/.test(path)) throw new InvalidInputError(`A command's path is what \`ms.describe()\` lists, e.g. renderstream/restartlayers (got ${JSON.stringify(command?.path)}).`);
  return { method, path: path.startsWith('/api/') ? path : `/api/session/${path.replace(/^\/+/, '')}` };
}

/**
 * The command as the director describes it, ready to send: the catalogue's own entry when core knows it (its
 * guards hold), else one made from the description. Refused unsent when the description lacks it or its body does
 * not match the description's schema.
 */
export function describedSpec(description: ApiDescription, { method, path }: { method: HttpMethod; path: string }, body: unknown): EndpointSpec {
  const operation = description.operations.find((candidate) => candidate.toLowerCase() === `${method} ${path}`.toLowerCase());
  const known = endpointList.find((endpoint) => endpoint.method === method && endpoint.path === path);
  if (!operation) {
    const version = description.version ? `API ${description.version}` : 'API';
    throw new NotDescribedError(`${method} ${path} was not sent: this director's ${version} offers no \`${shortPath(path)}\`, as its own description says.`, { method, url: path });
  }
  const problems = bodyProblems(description.bodies[operation], description.definitions, body);
  if (problems.length > 0) throw new InvalidInputError(`${method} ${path} was not sent: its body does not match the director's description: ${problems.join('; ')}.`);
  return (
    known ?? {
      group: 'described',
      operation: shortPath(path),
      method,
      path,
      family: 'session',
      returns: 'body',
      summary: description.summaries[operation] ?? shortPath(path),
    }
  );
}

/** A catalogue path as operators and the description's readers name it: `transport/speed`. */
function shortPath(path: string): string {
  return path.replace(/^\/api\/(session|service)\//, '');
}

/**
 * The director's description, read once per director and kept: `describe()` reads it (or shares the read on its
 * way), `refusal()` answers at once from what was read and never waits, so a cue is never held for it. A director
 * change forgets it. A build without a description is remembered as such: its commands are the documents'.
 */
export class DescribedCommands {
  #reading: Promise<ApiDescription | undefined> | undefined;
  #read: ApiDescription | undefined;
  #generation = 0;
  /** A description was read from some director of this client: one forgotten is read again once it can be. */
  #wanted = false;

  constructor(private readonly http: HttpClient) {}

  /** Reads the description unless read already for this director; undefined when the build has none. */
  description(options?: CallOptions): Promise<ApiDescription | undefined> {
    if (this.#reading) return this.#reading;
    const generation = this.#generation;
    const reading = readApiDescription(this.http, options).then(
      (description) => {
        if (generation === this.#generation) this.#read = description;
        if (description) this.#wanted = true;
        return description;
      },
      (error: unknown) => {
        if (error instanceof NotOfferedError) return undefined;
        // A transient failure is not an answer: the next describe() asks again.
        if (this.#reading === reading) this.#reading = undefined;
        throw error;
      },
    );
    this.#reading = reading;
    return reading;
  }

  /** The director changed (or its project reloaded): what was read no longer tells what it offers. */
  forget(): void {
    this.#generation += 1;
    this.#reading = undefined;
    this.#read = undefined;
  }

  /** A description read before and forgotten since is read again, in the background: refusals hold after a reload. */
  refresh(): void {
    if (!this.#wanted || this.#read || this.#reading) return;
    // A failed read is asked again by the next describe() or refresh; nothing waits on this one.
    this.description().catch(() => undefined);
  }

  /**
   * Why this command must not be sent, from a description already read; undefined when it may go (nothing read
   * yet, no description, or described). Synchronous, so the cue path never waits for it.
   */
  refusal(spec: EndpointSpec): NotDescribedError | undefined {
    const description = this.#read;
    if (!description || description.offers(spec)) return undefined;
    const version = description.version ? `API ${description.version}` : 'API';
    return new NotDescribedError(
      `${spec.method} ${spec.path} was not sent: this director's ${version} offers no \`${shortPath(spec.path)}\` (${spec.summary.toLowerCase()}), as its own description says. Sending it again will not help; use a build that offers it.`,
      { method: spec.method, url: this.http.baseUrl + spec.path },
    );
  }
}
