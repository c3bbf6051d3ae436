import type { EventEmitter } from 'node:events';
import { Bonjour, type Service, type ServiceConfig } from 'bonjour-service';
import { reasonOf } from '../errors.js';
import { parseTxtRecord } from './txt-record.js';

/** The spec's DNS-SD names: `_svcdirector._tcp.local.` and `_svcapi._http._tcp.local.` */
export const DIRECTOR_SERVICE_TYPE = 'svcdirector';
export const API_SERVICE_TYPE = 'svcapi._http';

export interface DnssdOptions {
  /** How long to listen for announcements. */
  timeoutMs?: number;
  /** The interface to multicast on, e.g. `127.0.0.1`; all interfaces when absent. */
  interface?: string;
  signal?: AbortSignal;
}

export interface DnssdDirector {
  hostname: string;
  url: string;
  session?: string;
}

/**
 * Listens for a director (`_svcdirector._tcp`, session in its TXT record) and the API server of the same
 * host (`_svcapi._http._tcp`). Resolves undefined when none answers in time; never throws for network
 * trouble (mDNS socket errors are reported through `onProblem`).
 */
export function browseDirector(options: DnssdOptions = {}, onProblem: (message: string) => void = () => undefined): Promise<DnssdDirector | undefined> {
  // Passed on to multicast-dns; bonjour-service's types name only the service fields. Binding the wildcard
  // address is what lets a socket whose interface is 127.0.0.1 receive the multicast answers.
  const bonjourOptions = (options.interface ? { interface: options.interface, bind: '0.0.0.0' } : {}) as Partial<ServiceConfig>;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (director: DnssdDirector | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      bonjour.destroy();
      resolve(director);
    };
    const onAbort = (): void => finish(undefined);
    const onError = (error: unknown): void => {
      onProblem(`DNS-SD: ${reasonOf(error)}`);
      finish(undefined);
    };
    const bonjour = new Bonjour(bonjourOptions, onError);
    onMdnsSocketError(bonjour, onError);
    const directors: Service[] = [];
    const apis: Service[] = [];
    const match = (): void => {
      for (const director of directors) {
        const api = apis.find((candidate) => candidate.host === director.host);
        if (api) finish(describe(director, api));
      }
    };
    bonjour.find({ type: DIRECTOR_SERVICE_TYPE }, (service) => (directors.push(service), match()));
    bonjour.find({ type: API_SERVICE_TYPE }, (service) => (apis.push(service), match()));
    const timer = setTimeout(() => finish(undefined), options.timeoutMs ?? 3000);
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function describe(director: Service, api: Service): DnssdDirector {
  const txt = parseTxtRecord((director as Service & { rawTxt?: unknown }).rawTxt);
  const session = typeof txt.session === 'string' ? txt.session : undefined;
  const host = addressOf(api);
  return { hostname: director.host, url: `http://${host.includes(':') ? `[${host}]` : host}:${api.port}`, ...(session ? { session } : {}) };
}

/** The SRV target when it is an address already; otherwise the first IPv4 address announced. */
function addressOf(service: Service): string {
  if (/^[\d.]+$/.test(service.host)) return service.host;
  return service.addresses?.find((address) => /^[\d.]+$/.test(address)) ?? service.host;
}

/**
 * bonjour-service hands only failed sends to its error callback. Its multicast socket reports a failed bind
 * (port 5353 held without address reuse, no permission) as an 'error' event that nothing listens to, which
 * would end the process: listen to it too.
 */
export function onMdnsSocketError(bonjour: Bonjour, onError: (error: Error) => void): void {
  (bonjour as unknown as { server?: { mdns?: EventEmitter } }).server?.mdns?.on('error', onError);
}
