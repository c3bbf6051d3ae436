import {
  API_INSTANCE_NAME,
  API_SERVICE_TYPE,
  DIRECTOR_SERVICE_TYPE,
  HOST_SERVICE_TYPE,
  HTTP_SERVICE_TYPE,
  numberedInstance,
  SHIPPING_DIRECTOR_SERVICE_TYPE,
  type DirectorTxt,
  type HostTxt,
} from '@stagelink/core/protocol';
import type { ServiceConfig } from 'bonjour-service';
import type { Dialect } from '../options.js';
import type { SessionMachineView } from '../session/session-machines.js';
import type { SessionState } from '../state/session-state.js';

/** A machine that runs a server, as announced. */
export interface AnnouncedMachine {
  hostname: string;
  /** Where its server listens: announced as the SRV target, since no machine name resolves on loopback. */
  address: string;
  role: string;
}

/** What the simulator announces: the machines that run a server, all on one API port. */
export interface AnnouncedSession {
  /** The project path: the session's name. */
  session: string;
  /** The director's hostname; absent when the machine runs solo. */
  director?: string;
  machines: readonly AnnouncedMachine[];
  port: number;
  versionNumber: string;
  branch: string;
}

/**
 * The session now: in the `session` scenario its running machines, elsewhere this process alone (the other
 * machines exist only in the model, at addresses nothing listens on).
 */
export function sessionToAnnounce(state: SessionState, port: number, running: readonly SessionMachineView[]): AnnouncedSession {
  const local = state.machines.local;
  const machines = running.length
    ? running.filter((each) => each.running).map(({ hostname, role, url }) => ({ hostname, role, address: new URL(url).hostname }))
    : [{ hostname: local.hostname, role: local.type, address: state.addressOf(local.hostname) ?? local.hostname }];
  const { major, minor, hotfix, revision } = state.project.version;
  return {
    session: state.project.projectPath,
    ...(state.machines.solo ? {} : { director: local.hostname }),
    machines,
    port,
    versionNumber: `${major}.${minor}.${hotfix}.${revision}`,
    branch: `r${major}.${minor}`,
  };
}

/** The services a dialect announces for the session. */
export function servicesOf(dialect: Dialect, session: AnnouncedSession): ServiceConfig[] {
  return dialect === 'r34' ? shippingServices(session) : documentServices(session);
}

/** The documents' names: the director (`_svcdirector._tcp`, TXT `session`) and its API (`_svcapi._http._tcp`). */
function documentServices(session: AnnouncedSession): ServiceConfig[] {
  const director = session.machines.find((machine) => machine.hostname === session.director);
  if (!director) return [];
  const common = { host: director.address, port: session.port, disableIPv6: true, probe: false };
  return [
    { ...common, name: `${session.session} director`, type: DIRECTOR_SERVICE_TYPE, txt: { session: session.session } },
    { ...common, name: `${session.session} API`, type: API_SERVICE_TYPE },
  ];
}

/**
 * What a shipping r34 session announces: `_d3host._tcp` for every machine (instance its hostname), its API as
 * `d3api` of `_http._tcp` (numbered from the second announcement on, as mDNS renames a taken name; the director
 * announces it on two interfaces), and `_d3director._tcp` while a director controls the session. The ports of
 * `_d3host` and `_d3director` are the API's here; clients take the API's port from `d3api` alone.
 */
function shippingServices(session: AnnouncedSession): ServiceConfig[] {
  const services: ServiceConfig[] = [];
  const common = (machine: AnnouncedMachine) => ({ host: machine.address, port: session.port, disableIPv6: true, probe: false });
  const apiOf = (machine: AnnouncedMachine): ServiceConfig => ({
    ...common(machine),
    name: numberedInstance(API_INSTANCE_NAME, services.filter((service) => service.type === HTTP_SERVICE_TYPE).length + 1),
    type: HTTP_SERVICE_TYPE,
  });
  for (const machine of session.machines) {
    const txt: HostTxt = { recentProject: session.session, recentRole: machine.role, versionNumber: session.versionNumber, branch: session.branch };
    services.push({ ...common(machine), name: machine.hostname, type: HOST_SERVICE_TYPE, txt });
    services.push(apiOf(machine));
    if (machine.hostname !== session.director) continue;
    services.push(apiOf(machine));
    const txtOfDirector: DirectorTxt = { sessionName: session.session };
    services.push({ ...common(machine), name: directorInstanceName(session.session), type: SHIPPING_DIRECTOR_SERVICE_TYPE, txt: txtOfDirector });
  }
  return services;
}

/** A shipping director's instance name: the session name with its special characters as `_`. */
export function directorInstanceName(session: string): string {
  return session.replace(/[^A-Za-z0-9_-]/g, '_');
}
