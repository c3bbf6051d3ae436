import { hardwareSummaryOf, InvalidInputError, type HardwareSnapshot, type HardwareWatch } from '@stagelink/core';
import { inRuntimeLanguage, sayError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties, missing } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef, NodeMessage } from '../../shared/node-red.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { say, useRuntime } from '../../shared/words.js';
import { hardwareSettingsOf, type HardwareSettings } from './hardware-settings.js';

/**
 * `stagelink-hardware`: one machine's hardware health from core's `hardwareOf(machine).watch`, read from its
 * management controller once a period (15 s by default) however many nodes watch it: each snapshot that changed on
 * the first output (fans, temperatures, power, fault flags, output cards, severity and reasons), and on the second
 * the changes a flow reacts to (the severity or the status moved, or the reasons changed). An SMC that stops
 * answering is `offline`, never its last readings shown as now.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-hardware', function StagelinkHardware(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startHardware(RED, this, def);
  });
}

/** What the second output tells: the verdict, not the readings that drift from poll to poll. */
function verdictOf(snapshot: HardwareSnapshot): string {
  return JSON.stringify([snapshot.status, snapshot.severity, snapshot.reasons]);
}

function startHardware(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const status = new StatusLine(node, { live: true });
  showServerState(RED, node, def, status, { reportsSetup: true });
  let settings: HardwareSettings | Error;
  try {
    settings = hardwareSettingsOf(def);
  } catch (error) {
    settings = error instanceof Error ? error : new InvalidInputError(String(error));
  }
  let watching: { machine: string; watch: HardwareWatch; last?: HardwareSnapshot } | undefined;
  let start: NodeJS.Immediate | undefined;

  const show = (snapshot: HardwareSnapshot): void => {
    if (snapshot.status === 'offline') return status.offline(say('status.hardwareOffline'));
    if (snapshot.status === 'stale') return status.stale(say('status.hardwareStale'));
    const { hottest, slowest } = hardwareSummaryOf(snapshot);
    const readings = [hottest ? `${hottest.celsius} °C` : undefined, slowest ? `${slowest.rpm} RPM` : undefined].filter((part) => part !== undefined).join(' · ');
    const text = snapshot.reasons[0] ?? (readings || say('status.severityOk'));
    status.show({ fill: snapshot.severity === 'ok' ? 'green' : snapshot.severity === 'warning' ? 'yellow' : 'red', shape: 'dot', text });
  };

  /** Watches `machine` unless the node already does; answers whether it changed. Throws what to fix. */
  const watch = (machine: string): boolean => {
    if (settings instanceof Error) throw settings;
    if (watching?.machine === machine) return false;
    const client = serverConnection(RED, def.server).client;
    watching?.watch.close();
    watching = undefined;
    status.connecting();
    const { everyMs, thresholds } = settings;
    const current = { machine } as { machine: string; watch: HardwareWatch; last?: HardwareSnapshot };
    current.watch = client.hardwareOf(machine).watch(
      (snapshot) => {
        if (work.closing) return;
        const before = current.last;
        current.last = snapshot;
        show(snapshot);
        const changed = before === undefined || verdictOf(before) !== verdictOf(snapshot);
        const previous = before === undefined ? null : { status: before.status, severity: before.severity, reasons: before.reasons };
        const change = changed ? { topic: machine, payload: { machine, status: snapshot.status, severity: snapshot.severity, reasons: snapshot.reasons, previous } } : null;
        node.send([{ topic: machine, payload: snapshot }, change]);
      },
      { everyMs, thresholds },
    );
    watching = current;
    return true;
  };

  const work = handleInput(
    node,
    status,
    async (msg, { send }) => {
      // The node's machine when it has one; a blank one takes msg.machine.
      const machine = await new MessageProperties(RED, node, def, msg).text('machine');
      if (machine === undefined) throw missing('machine', 'machine');
      // A msg for the machine already watched sends its latest snapshot now: for a dashboard that has just opened.
      if (!watch(machine) && watching?.last) {
        msg.topic = machine;
        msg.payload = watching.last;
        send([msg, null]);
      }
    },
    () => {
      if (start) clearImmediate(start);
      watching?.watch.close();
      watching = undefined;
    },
  );

  // Watched once the whole flow has started, so a Catch node later in the flow hears of a setting that cannot work.
  start = setImmediate(() => {
    start = undefined;
    void work.track(
      async () => {
        if (settings instanceof Error) throw settings;
        const machine = await new MessageProperties(RED, node, def, {}).text('machine');
        if (machine !== undefined) watch(machine);
        else status.show({ fill: 'grey', shape: 'ring', text: say('status.needsMachine') });
      },
      (error) => {
        status.failed(error);
        node.error(inRuntimeLanguage(error), { topic: 'setup', payload: sayError(error) } satisfies NodeMessage);
      },
    );
  });
}
