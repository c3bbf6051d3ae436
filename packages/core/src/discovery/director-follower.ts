import type { Logger } from '../http/logger.js';
import { machineOrigin, queryDirector, type HostMap, type QueriedDirector } from './query.js';
import { isUnreachable, reasonOf } from '../errors.js';
import { HttpClient } from '../http/http-client.js';
import type { TlsOptions } from '../http/tls.js';
import { EndpointCaller } from '../media-server/endpoint-caller.js';
import { endpoints } from '../media-server/catalogue.js';
import { browseSession } from './dnssd.js';

export interface DirectorFollowerOptions {
  /** How often every known machine is asked again. */
  intervalMs?: number;
  /**
   * More machines of the session the user gave (an understudy, an editor), asked in order after the first: the
   * director is found while that one is off, and they count as given addresses for names that do not resolve.
   */
  backupOrigins?: readonly string[];
  /** Addresses for machine names this computer cannot resolve. */
  hosts?: HostMap;
  /** How to trust the machines' `https://` certificates. */
  tls?: TlsOptions;
  /**
   * Listen for the session's DNS-SD announcements when no machine known leads to the director: each machine heard
   * is asked at the address it announces, and that address stands for its name where `hosts` gives none (shipping
   * machines announce `_d3host` with their name, which the desk often cannot resolve). Opt-in: it joins the mDNS
   * group (port 5353) on the show network. `interface` is the multicast interface, e.g. `127.0.0.1`.
   */
  dnssd?: { interface?: string };
}

export interface DirectorChange {
  hostname: string;
  url: string;
  solo: boolean;
  /** The machine that directed the session before, when the role moved from one machine to another. */
  previous?: string;
}

/** Field tools re-check the role of each known machine every few seconds. */
export const DIRECTOR_CHECK_INTERVAL_MS = 3000;
const QUERY_TIMEOUT_MS = 1500;
/** How long one look at DNS-SD waits for a director to be announced. */
const DNSSD_LISTEN_MS = 2000;
/** While the announcements lead to no director, each look waits twice as long as the last after it, up to this. */
const DNSSD_MAX_GAP_MS = 60_000;

/**
 * Keeps track of which machine directs the session: asks the current director, then every machine it has
 * heard of, and reports a move. One check at a time; callers during a check share it.
 */
export class DirectorFollower {
  readonly #known = new Set<string>();
  /** The addresses the user gave: the first, then the backups. */
  readonly #given: ReadonlySet<string>;
  #current: string;
  #director: DirectorChange | undefined;
  #check: Promise<boolean> | undefined;
  #firstCheck: Promise<boolean>;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** Directors already reported as out of reach by name, so the log says it once. */
  readonly #toldUnreachable = new Set<string>();
  /** Addresses (`host:port`) the machines announced over DNS-SD, by hostname in lower case. */
  readonly #announced = new Map<string, string>();
  #nextListenAt = 0;
  #listenGapMs = DIRECTOR_CHECK_INTERVAL_MS;
  #toldDnssdProblem = false;
  #toldCheckFailed = false;
  /** Ends a DNS-SD look in progress when the follower stops. */
  readonly #stopping = new AbortController();

  constructor(
    seedOrigin: string,
    /**
     * Told the director once it is first found, again whenever it moves (`moved` true), and when another machine
     * answers as director at the same address (`moved` false).
     */
    private readonly onDirector: (change: DirectorChange, moved: boolean) => void,
    private readonly logger: Logger,
    private readonly options: DirectorFollowerOptions = {},
  ) {
    this.#given = new Set([seedOrigin, ...(options.backupOrigins ?? [])]);
    this.#current = seedOrigin;
    for (const origin of this.#given) this.#known.add(origin);
    this.#firstCheck = this.check();
    this.#timer = setInterval(() => void this.check(), options.intervalMs ?? DIRECTOR_CHECK_INTERVAL_MS);
    // A client someone forgot to close must not keep the process alive.
    this.#timer.unref();
  }

  get current(): string {
    return this.#current;
  }

  /** The director as last found; undefined until a machine of the session has answered. */
  get director(): DirectorChange | undefined {
    return this.#director;
  }

  /** Resolves once the first check is done, so the first request already goes to the director. */
  async ready(): Promise<void> {
    await this.#firstCheck;
  }

  /** Looks for the director now; resolves true when it moved. Never rejects: it runs from timers and events. */
  check(): Promise<boolean> {
    this.#check ??= this.#findDirector()
      .catch((error: unknown) => this.#checkFailed(error))
      .finally(() => (this.#check = undefined));
    return this.#check;
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#stopping.abort();
  }

  async #findDirector(): Promise<boolean> {
    const director = (await this.#askMachines([this.#current, ...this.#known])) ?? (await this.#askAnnounced());
    return director !== undefined && this.#found(director);
  }

  /** The director according to the first of `origins` that leads to one. */
  async #askMachines(origins: readonly string[]): Promise<DirectorChange | undefined> {
    // Each machine once per check, the current director first: one that is powered off costs a whole query timeout.
    const asked = new Map<string, Promise<QueriedDirector | Error>>();
    for (const origin of new Set(origins)) {
      if (this.#stopped) return undefined;
      const director = await this.#directorAccordingTo(origin, asked);
      if (director) return director;
    }
    return undefined;
  }

  /**
   * The director through the session's DNS-SD announcements, when the follower listens for them and is due to: the
   * machines heard are asked at their announced addresses, the announced director first. Looks that lead nowhere
   * come further and further apart, as mDNS queriers back off, so a session that is off is not flooded.
   */
  async #askAnnounced(): Promise<DirectorChange | undefined> {
    const dnssd = this.options.dnssd;
    if (!dnssd || this.#stopped || performance.now() < this.#nextListenAt) return undefined;
    const heard = await browseSession({ timeoutMs: DNSSD_LISTEN_MS, interface: dnssd.interface, signal: this.#stopping.signal }, (problem) =>
      this.#dnssdProblem(problem),
    );
    const machines = [...(heard.director ? [heard.director] : []), ...heard.machines].flatMap(({ hostname, url }) => {
      if (url === undefined) return [];
      // Announcements carry no scheme: the session's machines speak as the one the user gave (http, or https with a venue CA).
      const at = new URL(this.#current);
      at.host = new URL(url).host;
      return [{ hostname, url: at.origin }];
    });
    for (const { hostname, url } of machines) {
      this.#announced.set(hostname.toLowerCase(), new URL(url).host);
      this.#known.add(url);
    }
    // Which network it listened on: a desk on two networks that hears nothing most often listens on the wrong one.
    this.logger.debug?.(`director check: DNS-SD on ${dnssd.interface ?? 'every interface'} announced ${machines.map(({ hostname, url }) => `${hostname} at ${url}`).join(', ') || 'no machine'}`);
    const director = await this.#askMachines(machines.map(({ url }) => url));
    if (director) {
      this.#nextListenAt = 0;
      this.#listenGapMs = DIRECTOR_CHECK_INTERVAL_MS;
    } else {
      this.#nextListenAt = performance.now() + this.#listenGapMs;
      this.#listenGapMs = Math.min(this.#listenGapMs * 2, DNSSD_MAX_GAP_MS);
    }
    return director;
  }

  /**
   * A check that failed for a reason of its own (not a machine that did not answer): said once in the log, and the
   * follow goes on at the next check. It runs from a timer, so a throw here would end the host process.
   */
  #checkFailed(error: unknown): false {
    if (this.#toldCheckFailed) this.logger.debug?.(`director check failed: ${reasonOf(error)}`);
    else {
      this.#toldCheckFailed = true;
      this.logger.warn(`Looking for the director failed (${reasonOf(error)}); it is looked for again every few seconds.`, {
        code: 'DIRECTOR_CHECK_FAILED',
        facts: { reason: reasonOf(error) },
        error,
      });
    }
    return false;
  }

  #dnssdProblem(problem: string): void {
    if (this.#toldDnssdProblem) return void this.logger.debug?.(`director check: ${problem}`);
    this.#toldDnssdProblem = true;
    this.logger.warn(
      `Looking for the director over DNS-SD failed (${problem}); it is looked for at the machines known so far. Check that no other program holds UDP port 5353 without sharing it, or give a hosts map.`,
      { code: 'DNSSD_FAILED', facts: { problem } },
    );
  }

  /** The hosts map given, then the addresses announced over DNS-SD for names it does not give. */
  #hosts(): HostMap | undefined {
    if (this.#announced.size === 0) return this.options.hosts;
    const given = Object.entries(this.options.hosts ?? {});
    const mapped = new Set(given.map(([hostname]) => hostname.toLowerCase()));
    return Object.fromEntries([...given, ...[...this.#announced].filter(([hostname]) => !mapped.has(hostname))]);
  }

  /**
   * The director, when `origin` answers and either is it or names a machine that confirms it; undefined otherwise.
   * A machine counts as the director when it names itself (its hostname in any case, or through the hosts map) or
   * runs solo; a machine it names must name itself too. So a machine that names another is never taken for the
   * director, and two machines naming each other during a takeover move the follower nowhere, rather than back
   * and forth on every check.
   */
  async #directorAccordingTo(origin: string, asked: Map<string, Promise<QueriedDirector | Error>>): Promise<DirectorChange | undefined> {
    const answer = await this.#ask(origin, asked);
    if (answer instanceof Error) return undefined;
    if (answer.url === origin) return changeOf(answer);
    // Already found out of reach by name and used at the machine that named it: no need to look again each check.
    const known = this.#director;
    if (this.#given.has(origin) && known?.hostname === answer.hostname && known.url === origin) return known;
    const named = await this.#ask(answer.url, asked);
    if (!(named instanceof Error)) return named.url === answer.url ? changeOf(named) : undefined;
    return this.#directorAtGiven(changeOf(answer), origin, named);
  }

  /** What `origin` says of its session's director; the error when it did not answer. Asked once per check. */
  #ask(origin: string, asked: Map<string, Promise<QueriedDirector | Error>>): Promise<QueriedDirector | Error> {
    let answer = asked.get(origin);
    if (!answer) {
      answer = queryDirector(origin, { timeoutMs: QUERY_TIMEOUT_MS, tls: this.options.tls, hosts: this.#hosts() }).then(
        (queried) => {
          const { director, actors, understudies } = queried.session;
          this.#learnMachines(origin, director ? [director, ...actors, ...understudies] : []);
          return queried;
        },
        (error: unknown) => {
          this.logger.debug?.(`director check: ${origin} did not answer: ${reasonOf(error)}`);
          return error instanceof Error ? error : new Error(reasonOf(error));
        },
      );
      asked.set(origin, answer);
    }
    return answer;
  }

  /**
   * An address the user gave, as the director, when it names a director whose name cannot be reached from here
   * and it carries out session commands itself: a control desk often cannot resolve a director's Windows machine
   * name, although the address the user typed is that very machine. Only given addresses: any other machine must
   * name itself.
   */
  async #directorAtGiven(director: DirectorChange, namedBy: string, problem: Error): Promise<DirectorChange | undefined> {
    if (!this.#given.has(namedBy) || !isUnreachable(problem) || !(await servesSession(namedBy, this.options.tls))) return undefined;
    if (!this.#toldUnreachable.has(director.hostname)) {
      this.#toldUnreachable.add(director.hostname);
      this.logger.warn(
        `The director ${director.hostname} cannot be reached by its name from here (${reasonOf(problem)}); ${namedBy} answers as the director, so requests keep going there. To follow a move to another machine, give the client a hosts map (hostname to address) or backup addresses.`,
        { code: 'DIRECTOR_UNREACHABLE_BY_NAME', facts: { hostname: director.hostname, reason: reasonOf(problem), namedBy }, error: problem },
      );
    }
    return { ...director, url: namedBy };
  }

  /**
   * Machines of the session are reached at their address in the hosts map (or as announced), else by their name, on
   * the port of the machine that listed them: once the given address is dead, they are where the director is looked
   * for.
   */
  #learnMachines(origin: string, machines: unknown[]): void {
    for (const machine of machines) {
      const url = machineOrigin(origin, (machine as { hostname?: unknown } | null)?.hostname, this.#hosts());
      if (url !== undefined) this.#known.add(url);
    }
  }

  #found(found: DirectorChange): boolean {
    if (this.#stopped) return false;
    const known = this.#director;
    const previous = known?.hostname;
    const moved = found.url !== this.#current;
    // Another machine at the same address (swapped, renamed, or a solo machine that joined a session) is news to
    // every output that shows the director, though requests keep going where they went.
    const changed = known === undefined || moved || known.hostname !== found.hostname || known.solo !== found.solo;
    const director = changed && previous !== undefined && previous !== found.hostname ? { ...found, previous } : found;
    this.#director = director;
    if (!changed) return false;
    if (moved) {
      this.logger.warn(`The director of the session is now ${director.hostname} (${director.url})${director.previous ? `, after ${director.previous}` : ''}; following it.`, {
        code: 'DIRECTOR_MOVED',
        facts: { hostname: director.hostname, url: director.url, previous: director.previous ?? '' },
      });
    }
    this.#current = director.url;
    try {
      this.onDirector(director, moved);
    } catch (error) {
      // A listener's bug must not stop the follow, nor turn into a rejection nobody handles.
      this.logger.warn(`A listener of the director change to ${director.hostname} threw: ${reasonOf(error)}`, {
        code: 'DIRECTOR_LISTENER_THREW',
        facts: { hostname: director.hostname, reason: reasonOf(error) },
        error,
      });
    }
    return moved;
  }
}

/** The director as a change to report: without the session answer it came from. */
function changeOf({ hostname, url, solo }: QueriedDirector): DirectorChange {
  return { hostname, url, solo };
}

/** True when the machine carries out session commands: it directs the session (others refuse them). */
async function servesSession(origin: string, tls: TlsOptions | undefined): Promise<boolean> {
  const http = new HttpClient({ baseUrl: origin, timeoutMs: QUERY_TIMEOUT_MS, retries: 0, tls });
  try {
    await new EndpointCaller(http).call(endpoints.activeTransport);
    return true;
  } catch {
    return false;
  } finally {
    await http.close();
  }
}
