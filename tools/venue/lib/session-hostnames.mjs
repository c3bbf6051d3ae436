// The show-monitor example names each machine's hostname once, as an environment variable of its flow named after
// the machine (ACTOR_1 for "Actor 1"). The demo fills them in from the session the simulator reports, whose
// hostnames differ by dialect (actor-1 in the API documents' words, ACTOR01 on an r34 director).
import { MediaServer, sessionMachines } from '@stagelink/core';

/** The session's hostnames by the environment variable that names each machine. */
export async function sessionHostnames(url) {
  const client = new MediaServer({ host: url, followDirector: false });
  try {
    const members = sessionMachines(await client.status.session());
    return new Map(members.map(({ machine }) => [variableOf(machine.name), machine.hostname]));
  } finally {
    await client.close();
  }
}

/** A flow (tab) with the environment variables of the session's machines set to their hostnames. */
export function withMachineHostnames(tab, hostnames) {
  if (!Array.isArray(tab.env)) return tab;
  return { ...tab, env: tab.env.map((variable) => (hostnames.has(variable.name) ? { ...variable, value: hostnames.get(variable.name) } : variable)) };
}

function variableOf(machineName) {
  return machineName.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}
