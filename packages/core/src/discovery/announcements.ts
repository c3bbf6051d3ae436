import {
  API_INSTANCE_NAME,
  API_SERVICE_TYPE,
  DIRECTOR_SERVICE_TYPE,
  HOST_SERVICE_TYPE,
  HTTP_SERVICE_TYPE,
  SHIPPING_DIRECTOR_SERVICE_TYPE,
  unnumberedInstance,
  type DirectorTxt,
  type HostTxt,
} from './service-names.js';

/** One service instance heard on the network, reduced to what discovery reads. */
export interface Announcement {
  /** The service type it was heard under, as service-names.ts writes it. */
  type: string;
  /** The instance name: `d3api (2)`, `DIRECTOR01`, `folder_show_d3session`. */
  instance: string;
  /** The SRV record's target: the machine's mDNS name (`DIRECTOR01.local`) or an address. */
  target: string;
  /** The SRV record's port. */
  port: number;
  /** The A and AAAA records heard for the target. */
  addresses: readonly string[];
  /** The address the announcement came from. */
  from?: string;
  /** The TXT record, keys in lower case as parseTxtRecord gives them. */
  txt: Readonly<Record<string, string | true>>;
}

/** A director heard over DNS-SD: its API's address and announced port, and its session. */
export interface AnnouncedDirector {
  hostname: string;
  url: string;
  session?: string;
}

/** A machine announced by `_d3host._tcp`, for pickers. */
export interface AnnouncedMachine {
  /** The machine's name, as it announces itself: `ACTOR01`. */
  hostname: string;
  /** The role it last had in a session (`recentRole`), as announced. */
  role?: string;
  /** Its software version (`versionNumber`), as announced. */
  version?: string;
  /** The project it last ran (`recentProject`). */
  project?: string;
  branch?: string;
  /** Its API (`d3api` of `_http._tcp`): address and announced port; absent when no API announcement was heard. */
  url?: string;
}

/**
 * The director among what was heard: a director announcement of either vocabulary from a machine that also
 * announced its API. `named` is false while the director's name is still unknown: a shipping director whose SRV
 * target is a bare address is named by its `_d3host` announcement, which may come a moment later.
 */
export function directorAmong(heard: readonly Announcement[]): { director: AnnouncedDirector; named: boolean } | undefined {
  for (const director of heard.filter(isDirectorAnnouncement)) {
    const machine = machineKey(director.target);
    const url = apiUrl(apisOf(heard, machine));
    if (url === undefined) continue;
    const host = heard.find((each) => each.type === HOST_SERVICE_TYPE && machineKey(each.target) === machine);
    const session = txtText(director.txt, 'sessionName') ?? txtText(director.txt, 'session');
    return {
      director: { hostname: host ? unnumberedInstance(host.instance) : hostPart(director.target), url, ...(session ? { session } : {}) },
      named: host !== undefined || director.type !== SHIPPING_DIRECTOR_SERVICE_TYPE || !isIpv4(director.target),
    };
  }
  return undefined;
}

/**
 * The machines `_d3host._tcp` announced, one per machine however many interfaces it announced on, by hostname;
 * each with its API's url when its `d3api` was heard.
 */
export function machinesAmong(heard: readonly Announcement[]): AnnouncedMachine[] {
  const byMachine = new Map<string, Announcement>();
  for (const host of heard.filter((each) => each.type === HOST_SERVICE_TYPE)) {
    const machine = machineKey(host.target);
    if (!byMachine.has(machine)) byMachine.set(machine, host);
  }
  return [...byMachine].map(([machine, host]) => describeMachine(host, apisOf(heard, machine))).sort((a, b) => a.hostname.localeCompare(b.hostname));
}

function describeMachine(host: Announcement, apis: readonly Announcement[]): AnnouncedMachine {
  return {
    hostname: unnumberedInstance(host.instance),
    role: txtText(host.txt, 'recentRole'),
    version: txtText(host.txt, 'versionNumber'),
    project: txtText(host.txt, 'recentProject'),
    branch: txtText(host.txt, 'branch'),
    url: apiUrl(apis),
  };
}

/** The API announcements of one machine: one per interface it announced on. */
function apisOf(heard: readonly Announcement[], machine: string): Announcement[] {
  return heard.filter((each) => isApiAnnouncement(each) && machineKey(each.target) === machine);
}

/** The documents' `_svcapi._http._tcp` under any name, or a shipping `d3api` (`d3api (2)`, ...) of `_http._tcp`. */
export function isApiAnnouncement(announcement: Announcement): boolean {
  if (announcement.type === API_SERVICE_TYPE) return true;
  return announcement.type === HTTP_SERVICE_TYPE && unnumberedInstance(announcement.instance).toLowerCase() === API_INSTANCE_NAME;
}

function isDirectorAnnouncement(announcement: Announcement): boolean {
  return announcement.type === DIRECTOR_SERVICE_TYPE || announcement.type === SHIPPING_DIRECTOR_SERVICE_TYPE;
}

/**
 * Which machine an announcement comes from: every interface of one machine names the same SRV target, in any
 * case, with or without `.local` and the final dot.
 */
export function machineKey(target: string): string {
  return hostPart(target).toLowerCase();
}

function hostPart(target: string): string {
  return target.replace(/\.$/, '').replace(/\.local$/i, '');
}

/**
 * The url of a machine's API from its API announcements (one per interface), on the announced port: at the first
 * IPv4 address one of them gives (its SRV target, the address it came from, an A record), else at its mDNS name.
 * The address an announcement came from is one this computer demonstrably reaches; a multi-homed director's A
 * records may name its other networks (d3net, media) first. Link-local IPv6 addresses need a zone a URL cannot
 * carry: they are not used.
 */
export function apiUrl(apis: readonly Announcement[]): string | undefined {
  for (const api of apis) {
    const address = [api.target, api.from, ...api.addresses].find((each) => each !== undefined && isIpv4(each));
    if (address !== undefined) return `http://${address}:${api.port}`;
  }
  const [first] = apis;
  return first && `http://${first.target.replace(/\.$/, '')}:${first.port}`;
}

function isIpv4(text: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(text);
}

/** A text value of a TXT record by its key as announced (TXT keys are case-insensitive); flags and empty values are none. */
function txtText(txt: Announcement['txt'], key: keyof DirectorTxt | keyof HostTxt | 'session'): string | undefined {
  const value = txt[key.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
