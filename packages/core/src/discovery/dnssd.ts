import type { EventEmitter } from 'node:events';
import { Bonjour, type Service, type ServiceConfig } from 'bonjour-service';
import { reasonOf } from '../errors.js';
import { directorAmong, machinesAmong, type AnnouncedDirector, type AnnouncedMachine, type Announcement } from './announcements.js';
import {
  API_SERVICE_TYPE,
  DIRECTOR_SERVICE_TYPE,
  HOST_SERVICE_TYPE,
  HTTP_SERVICE_TYPE,
  SHIPPING_DIRECTOR_SERVICE_TYPE,
} from './service-names.js';
import { parseTxtRecord } from './txt-record.js';

export interface DnssdOptions {
  /** How long to listen for announcements. */
  timeoutMs?: number;
  /** The interface to multicast on, e.g. `127.0.0.1`; all interfaces when absent. */
  interface?: string;
  signal?: AbortSignal;
}

/** Both vocabularies, always: a network may hold machines of either, and a director of one with an API of the other. */
const SESSION_SERVICE_TYPES = [DIRECTOR_SERVICE_TYPE, API_SERVICE_TYPE, SHIPPING_DIRECTOR_SERVICE_TYPE, HOST_SERVICE_TYPE, HTTP_SERVICE_TYPE];

/**
 * Listens for a director (`_svcdirector._tcp` or `_d3director._tcp`) whose machine also announces its API
 * (`_svcapi._http._tcp`, or `d3api` of `_http._tcp`). Resolves undefined when none answers in time; never throws
 * for network trouble (mDNS socket errors are reported through `onProblem`).
 */
export async function browseDirector(options: DnssdOptions = {}, onProblem: (message: string) => void = () => undefined): Promise<AnnouncedDirector | undefined> {
  const heard = await listen(options, onProblem, (sofar) => directorAmong(sofar)?.named === true);
  return directorAmong(heard)?.director;
}

/** Lists the machines that announce themselves (`_d3host._tcp`) within the time given; never throws, as browseDirector. */
export async function browseMachines(options: DnssdOptions = {}, onProblem: (message: string) => void = () => undefined): Promise<AnnouncedMachine[]> {
  return machinesAmong(await listen(options, onProblem, () => false));
}

/** What a session announces: its director and its machines, each with its API's url where it was heard. */
export interface AnnouncedSession {
  director?: AnnouncedDirector;
  machines: AnnouncedMachine[];
}

/**
 * Listens for the session's announcements until its director is named or the time is up: the director (as
 * browseDirector) and the machines heard by then (as browseMachines). Never throws, as browseDirector.
 */
export async function browseSession(options: DnssdOptions = {}, onProblem: (message: string) => void = () => undefined): Promise<AnnouncedSession> {
  const heard = await listen(options, onProblem, (sofar) => directorAmong(sofar)?.named === true);
  return { director: directorAmong(heard)?.director, machines: machinesAmong(heard) };
}

/**
 * Listens for the session's announcements until `enough` is satisfied with what was heard, the time is up, the
 * signal aborts or the mDNS socket fails; resolves with everything heard by then.
 */
function listen(options: DnssdOptions, onProblem: (message: string) => void, enough: (heard: Announcement[]) => boolean): Promise<Announcement[]> {
  // Passed on to multicast-dns; bonjour-service's types name only the service fields. Binding the wildcard
  // address is what lets a socket whose interface is 127.0.0.1 receive the multicast answers.
  const bonjourOptions = (options.interface ? { interface: options.interface, bind: '0.0.0.0' } : {}) as Partial<ServiceConfig>;
  return new Promise((resolve) => {
    let settled = false;
    const timer = setTimeout(() => finish(), options.timeoutMs ?? 3000);
    const browsers: { type: string; browser: ReturnType<Bonjour['find']> }[] = [];
    const heard = (): Announcement[] => browsers.flatMap(({ type, browser }) => browser.services.map((service) => announcementOf(type, service)));
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', finish);
      const all = heard();
      bonjour.destroy();
      resolve(all);
    };
    const onError = (error: unknown): void => {
      finish();
      try {
        onProblem(`DNS-SD: ${reasonOf(error)}`);
      } catch {
        // The caller's own listener failing must not become an uncaught error of the mDNS socket.
      }
    };
    const bonjour = new Bonjour(bonjourOptions, onError);
    onMdnsSocketError(bonjour, onError);
    const check = (): void => {
      if (!settled && enough(heard())) finish();
    };
    for (const type of SESSION_SERVICE_TYPES) {
      const browser = bonjour.find({ type }, check);
      browser.on('srv-update', check).on('txt-update', check);
      browsers.push({ type, browser });
    }
    options.signal?.addEventListener('abort', finish, { once: true });
    if (options.signal?.aborted) finish();
  });
}

function announcementOf(type: string, service: Service): Announcement {
  return {
    type,
    instance: service.name,
    target: service.host,
    port: service.port,
    addresses: service.addresses ?? [],
    from: service.referer?.address,
    txt: parseTxtRecord((service as Service & { rawTxt?: unknown }).rawTxt),
  };
}

/**
 * bonjour-service hands only failed sends to its error callback. Its multicast socket reports a failed bind
 * (port 5353 held without address reuse, no permission) as an 'error' event that nothing listens to, which
 * would end the process: listen to it too.
 */
export function onMdnsSocketError(bonjour: Bonjour, onError: (error: Error) => void): void {
  (bonjour as unknown as { server?: { mdns?: EventEmitter } }).server?.mdns?.on('error', onError);
}
