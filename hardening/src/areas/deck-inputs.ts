import { startSimulator, type Simulator } from '@stagelink/simulator';
import type { RunContext } from '../context.js';
import { DeckEventGenerator, type DeckEvent } from '../gen/deck-events.js';
import { ACTIONS, launchDeck, type LaunchedDeck } from '../streamdeck/deck.js';
import { KeyPresses } from '../streamdeck/key-presses.js';
import { checkPluginLog } from '../streamdeck/plugin-log.js';
import { brief } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';
import { sleep, waitUntil } from '../support/time.js';
import { HostileServer } from '../hostile/hostile-server.js';

/** Every press must be answered within the plugin's request deadline (4 s) plus slack. */
const SETTLE_MS = 30_000;
const PROBE_KEY = 'hardening-probe';

/**
 * The built plugin on the fake Stream Deck app, fed generated traffic (see DeckEventGenerator) against the
 * simulator, then against a server that only answers badly. The plugin process must stay up and keep
 * answering; every transport key press must end in exactly one OK or alert; no uncaught error may reach the
 * plugin's last-resort handler; live sockets must be released when the keys leave.
 */
export async function deckInputs(context: RunContext): Promise<Tally> {
  const tally = new Tally('stream deck: settings & events');
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: context.seed });
  const hostile = await HostileServer.start(context.random.fork('deck-hostile'));
  let launched = await launchDeck(sim.mediaServer.url);
  try {
    for (const [phase, url] of [['simulator', sim.mediaServer.url], ['hostile server', hostile.url]] as const) {
      const events = Math.round(context.budget.deckEvents * (phase === 'simulator' ? 0.7 : 0.3));
      // The broken server's malformed frames go to every live key on it while the phase's events play.
      if (phase === 'hostile server') hostile.streamFrames(50);
      launched = await playEvents(launched, url, context.random.fork(phase), events, tally, phase);
    }
    hostile.stopFrames();
    tally.note(`${hostile.framesStreamed} malformed live frames streamed to the plugin`);
    tally.expect(hostile.framesStreamed > 0, 'no malformed live frame reached the plugin: it held no live socket on the broken server while frames streamed');
    await checkResponsive(launched, sim, tally);
    await checkReleased(launched, sim, tally);
    checkPluginLog(launched, tally);
  } finally {
    await launched.close();
    await hostile.close();
    await sim.close();
  }
  context.progress(`stream deck inputs: ${tally.inputs} events`);
  return tally.finish();
}

/** Plays `count` generated events with `url` as the global host; relaunches the plugin if it died. */
async function playEvents(launched: LaunchedDeck, url: string, random: RunContext['random'], count: number, tally: Tally, phase: string): Promise<LaunchedDeck> {
  const { deck } = launched;
  deck.changeGlobalSettings({ host: url });
  const generator = new DeckEventGenerator(random, url, phase.replace(/\W+/g, '-'));
  const presses = new KeyPresses(deck);
  for (let index = 0; index < count; index++) {
    const event = generator.next();
    tally.inputs++;
    apply(launched, generator, presses, event);
    if (index % 4 === 3) await sleep(25);
    if (!launched.alive()) {
      tally.crashes++;
      tally.finding(`the plugin exited (code ${String(deck.exitCode)}) during ${phase} after event #${index} ${brief(JSON.stringify(event), 160)}: ${brief(deck.output.slice(-600))}`);
      checkPluginLog(launched, tally);
      await launched.close();
      return launchDeck(url);
    }
  }
  const balance = await presses.settle(SETTLE_MS);
  tally.ok += balance.ok;
  tally.errors += balance.alert;
  tally.silentLosses += balance.unanswered;
  tally.expect(balance.extra === 0, `${balance.extra} transport key presses were answered more than once (${phase})`);
  tally.note(`${phase}: ${presses.total} transport key presses, ${balance.ok} OK, ${balance.alert} alerts, ${balance.unanswered} unanswered`);
  for (const context of generator.keys.keys()) deck.disappear(context);
  return launched;
}

function apply(launched: LaunchedDeck, generator: DeckEventGenerator, presses: KeyPresses, event: DeckEvent): void {
  const { deck } = launched;
  const key = 'context' in event ? generator.keys.get(event.context) : undefined;
  const isCueKey = key?.action === 'transport' && key.controller === 'Keypad';
  switch (event.kind) {
    case 'appear':
      deck.appear({ action: ACTIONS[event.action], context: event.context, settings: event.settings, controller: event.controller, isInMultiAction: event.multi });
      return;
    case 'disappear':
      deck.disappear(event.context);
      return;
    case 'settings':
      deck.changeSettings(event.context, event.settings);
      return;
    case 'press':
      if (isCueKey) presses.press(event.context);
      else deck.press(event.context);
      return;
    case 'keyDown':
      if (isCueKey) presses.keyDown(event.context);
      else deck.keyDown(event.context);
      return;
    case 'keyUp':
      deck.keyUp(event.context);
      return;
    case 'dialDown':
      deck.dialDown(event.context);
      return;
    case 'touchTap':
      deck.send({ event: 'touchTap', action: ACTIONS[key?.action ?? 'level'], context: event.context, device: 'DEVICE-PLUS-1', payload: { controller: 'Encoder', coordinates: { column: 0, row: 0 }, settings: {}, tapPos: [10, 10], hold: false } });
      return;
    case 'rotate':
      deck.dialRotate(event.context, event.ticks as number);
      return;
    case 'global':
      deck.changeGlobalSettings(event.settings);
      return;
    case 'inspector':
      deck.sendToPlugin(event.context, event.payload);
      return;
    case 'raw':
      deck.sendRaw(event.text);
  }
}

/** After everything, a fresh key with good settings still fires its cue: the plugin is alive and responsive. */
async function checkResponsive(launched: LaunchedDeck, sim: Simulator, tally: Tally): Promise<void> {
  const { deck } = launched;
  deck.changeGlobalSettings({ host: sim.mediaServer.url });
  deck.appear({ action: ACTIONS.transport, context: PROBE_KEY, settings: { command: 'play', transport: 'main' } });
  await sleep(300);
  const presses = new KeyPresses(deck);
  presses.press(PROBE_KEY);
  const answered = await presses.settle(10_000);
  tally.expect(launched.alive() && answered.ok === 1, `the plugin did not fire a good cue after the generated events (alive ${String(launched.alive())}, OK ${answered.ok}, alerts ${answered.alert})`);
  deck.disappear(PROBE_KEY);
}

/** With every key gone, the plugin holds no live-update socket on the simulator. */
async function checkReleased(launched: LaunchedDeck, sim: Simulator, tally: Tally): Promise<void> {
  const released = await waitUntil(() => sim.live.stats().sockets === 0, 10_000);
  if (!released) {
    tally.leakedSockets += sim.live.stats().sockets;
    tally.finding(`${sim.live.stats().sockets} live sockets stayed open with no key on the deck (plugin alive: ${String(launched.alive())})`);
  }
}
