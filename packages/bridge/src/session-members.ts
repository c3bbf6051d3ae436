import { sessionMachines, type HealthEntry, type Machine, type SessionInfo, type Transport } from '@stagelink/core';

/** What one poll round changed in who is there: machines by their record, transports by name. */
export interface MembershipChanges {
  added: { machines: Machine[]; transports: string[] };
  /** Hostnames and transport names as they were first seen. */
  removed: { machines: string[]; transports: string[] };
}

/** One round's reads, each on its own: a failed read says nothing of who is there. */
export interface MembershipReads {
  session: PromiseSettledResult<SessionInfo>;
  health: PromiseSettledResult<HealthEntry[]>;
  transports: PromiseSettledResult<Transport[]>;
}

/**
 * The session's machines and transports as the polls have seen them. Anything a successful read lists is added;
 * something is removed only when it was seen before and a read succeeded without it: a machine once both the session
 * and its health answer without it, a transport once the transports read does. A failed read, or a first read that
 * lists fewer than an earlier run of the bridge published, removes nothing (a slow start must not take a venue's
 * Home Assistant entities, with their areas and names, away).
 */
export class SessionMembers {
  /** Hostnames seen, in lower case, to the spelling first seen: the session and its health may spell one otherwise. */
  readonly #machines = new Map<string, string>();
  readonly #transports = new Set<string>();

  /** The hostnames there, as first spelt. */
  get machines(): string[] {
    return [...this.#machines.values()];
  }

  get transports(): ReadonlySet<string> {
    return this.#transports;
  }

  update({ session, health, transports }: MembershipReads): MembershipChanges {
    const changes: MembershipChanges = { added: { machines: [], transports: [] }, removed: { machines: [], transports: [] } };
    const listedMachines = [
      ...(session.status === 'fulfilled' ? sessionMachines(session.value).map(({ machine }) => machine) : []),
      ...(health.status === 'fulfilled' && Array.isArray(health.value) ? health.value.map((entry) => entry?.machine) : []),
    ].filter((machine): machine is Machine => typeof machine?.hostname === 'string' && machine.hostname !== '');
    if (session.status === 'fulfilled' && health.status === 'fulfilled') {
      const listed = new Set(listedMachines.map(({ hostname }) => hostname.toLowerCase()));
      for (const [key, hostname] of this.#machines) {
        if (listed.has(key)) continue;
        this.#machines.delete(key);
        changes.removed.machines.push(hostname);
      }
    }
    for (const machine of listedMachines) {
      const key = machine.hostname.toLowerCase();
      if (this.#machines.has(key)) continue;
      this.#machines.set(key, machine.hostname);
      changes.added.machines.push(machine);
    }
    if (transports.status === 'fulfilled' && Array.isArray(transports.value)) {
      const names = transports.value.map((transport) => transport?.name).filter((name): name is string => typeof name === 'string');
      const listed = new Set(names);
      for (const name of this.#transports) {
        if (listed.has(name)) continue;
        this.#transports.delete(name);
        changes.removed.transports.push(name);
      }
      for (const name of names) {
        if (this.#transports.has(name)) continue;
        this.#transports.add(name);
        changes.added.transports.push(name);
      }
    }
    return changes;
  }
}
