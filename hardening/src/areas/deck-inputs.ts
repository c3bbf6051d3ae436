import { MediaServer } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import type { RunContext } from '../context.js';
import { DeckEventGenerator, type DeckEvent, type KeyState } from '../gen/deck-events.js';
import { hugeNameKeys, ODD_TICKS, SET_UP_DIAL } from '../gen/deck-set-pieces.js';
import type { Wire } from '../gen/values.js';
import { ACTIONS, launchDeck, type LaunchedDeck } from '../streamdeck/deck.js';
import { countTurnOutcome, levelPercent, shownPercent, turnDial, type DialCounts } from '../streamdeck/dial-turn.js';
import { InspectorRequests } from '../streamdeck/inspector-requests.js';
import { KeyPresses } from '../streamdeck/key-presses.js';
import { checkPluginLog } from '../streamdeck/plugin-log.js';
import { brief } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';
import { sleep, waitUntil } from '../support/time.js';
import { HostileServer } from '../hostile/hostile-server.js';

/** Every press must be answered within the plugin's request deadline (4 s) plus slack. */
const SETTLE_MS = 30_000;
const PROBE_KEY = 'hardening-probe';
const PROBE_DIAL = 'hardening-probe-dial';
/** How long a key with a good cue may take to answer while keys with huge names are on screen. */
const CUE_ANSWER_MS = 10_000;
/** An FPS key on the broken server through its whole phase, so its malformed frames reach the plugin. */
const LIVE_KEY = 'hardening-hostile-live';

/**
 * The built plugin on the fake Stream Deck app, fed generated traffic (see DeckEventGenerator) against the
 * simulator, then against a server that only answers badly. The plugin process must stay up and keep
 * answering; every transport key press must end in exactly one OK or alert, every turn of a set-up level dial
 * in the value on the server or an alert, every inspector request in one answer with items or a clear error;
 * no uncaught error may reach the plugin's last-resort handler; live sockets must be released when the keys
 * leave.
 */
export async function deckInputs(context: RunContext): Promise<Tally> {
  const tally = new Tally('stream deck: settings & events');
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: context.seed, dialect: context.dialect });
  const hostile = await HostileServer.start(context.random.fork('deck-hostile'));
  let launched = await launchDeck(sim.mediaServer.url);
  try {
    await playSetPieces(launched, sim, tally);
    for (const [phase, url] of [['simulator', sim.mediaServer.url], ['hostile server', hostile.url]] as const) {
      const events = Math.round(context.budget.deckEvents * (phase === 'simulator' ? 0.7 : 0.3));
      if (phase === 'hostile server') await watchHostileLive(launched, hostile);
      launched = await playEvents(launched, url, context.random.fork(phase), events, tally, phase);
    }
    hostile.stopFrames();
    if (launched.deck.keys.has(LIVE_KEY)) launched.deck.disappear(LIVE_KEY);
    tally.note(`${hostile.framesStreamed} malformed live frames streamed to the plugin`);
    tally.expect(hostile.framesStreamed > 0, 'no malformed live frame reached the plugin: it held no live socket on the broken server while frames streamed');
    await checkResponsive(launched, sim, tally);
    await checkDialLands(launched, sim, tally);
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

/**
 * Before the generated events, the inputs that once kept the plugin from answering (see deck-set-pieces): a dial
 * set up right turned by every odd tick count, each turn landing as shown or alerting; then keys of every action
 * with million-character names on screen while a good cue fires and must answer at once.
 */
async function playSetPieces(launched: LaunchedDeck, sim: Simulator, tally: Tally): Promise<void> {
  const { deck } = launched;
  const reader = new MediaServer({ host: sim.mediaServer.url, timeoutMs: 2000, retries: 0 });
  const dials: DialCounts = { turned: 0, landed: 0, alerts: 0 };
  const dial = 'set-piece-dial';
  const cue = 'set-piece-cue';
  deck.appear({ action: ACTIONS.level, context: dial, controller: 'Encoder', settings: SET_UP_DIAL });
  try {
    await waitUntil(() => shownPercent(deck, dial), 10_000);
    for (const ticks of ODD_TICKS) {
      tally.inputs++;
      dials.turned++;
      const outcome = await turnDial(deck, dial, ticks, () => levelPercent(reader, 'lobby', 'volume'), SETTLE_MS);
      countTurnOutcome(outcome, tally, dials, `a turn of ${JSON.stringify(ticks) ?? 'no'} ticks on a set-up dial (set pieces)`);
    }
  } finally {
    deck.disappear(dial);
    await reader.close();
  }
  tally.note(`set pieces: ${dials.turned} turns of a set-up dial by odd tick counts, ${dials.landed} reached the server as shown, ${dials.alerts} alerts`);

  const keys = hugeNameKeys().map((key, index) => ({ ...key, context: `set-piece-huge-${index}` }));
  for (const key of keys) {
    tally.inputs++;
    deck.appear({ action: ACTIONS[key.action], context: key.context, controller: key.controller, settings: key.settings });
  }
  // Long enough for the polls to answer and every face to be drawn with its name.
  await sleep(1500);
  deck.appear({ action: ACTIONS.transport, context: cue, settings: { command: 'play', transport: 'main' } });
  await sleep(300);
  const presses = new KeyPresses(deck);
  tally.inputs++;
  presses.press(cue);
  const answered = await presses.settle(CUE_ANSWER_MS);
  tally.ok += answered.ok;
  tally.errors += answered.alert;
  tally.silentLosses += answered.unanswered;
  tally.expect(answered.ok === 1, `a good cue did not answer OK within ${CUE_ANSWER_MS / 1000} s while ${keys.length} keys with million-character names were on screen (OK ${answered.ok}, alerts ${answered.alert})`);
  tally.note(`set pieces: ${keys.length} keys with million-character names on screen; a good cue answered ${answered.ok === 1 ? 'OK' : answered.alert > 0 ? 'with an alert' : 'nothing'}`);
  for (const key of keys) deck.disappear(key.context);
  deck.disappear(cue);
}

/** What one phase must see answered: cue key presses, inspector requests, and turns of set-up level dials. */
interface Answers {
  presses: KeyPresses;
  inspector: InspectorRequests;
  dials: DialCounts;
  /** The phase's server, and a client reading what it has, to compare with what a dial shows. */
  url: string;
  reader: MediaServer;
}

/** Plays `count` generated events with `url` as the global host; relaunches the plugin if it died. */
async function playEvents(launched: LaunchedDeck, url: string, random: RunContext['random'], count: number, tally: Tally, phase: string): Promise<LaunchedDeck> {
  const { deck } = launched;
  deck.changeGlobalSettings({ host: url });
  const generator = new DeckEventGenerator(random, url, phase.replace(/\W+/g, '-'));
  const answers: Answers = {
    presses: new KeyPresses(deck),
    inspector: new InspectorRequests(deck),
    dials: { turned: 0, landed: 0, alerts: 0 },
    url,
    reader: new MediaServer({ host: url, timeoutMs: 2000, retries: 0 }),
  };
  try {
    for (let index = 0; index < count; index++) {
      const event = generator.next();
      tally.inputs++;
      await apply(launched, generator, answers, event, tally, phase);
      if (index % 4 === 3) await sleep(25);
      if (!launched.alive()) {
        tally.crashes++;
        tally.finding(`the plugin exited (code ${String(deck.exitCode)}) during ${phase} after event #${index} ${brief(JSON.stringify(event), 160)}: ${brief(deck.output.slice(-600))}`);
        checkPluginLog(launched, tally);
        await launched.close();
        return await launchDeck(url);
      }
    }
    await countPresses(answers.presses, tally, phase);
    await countInspectorAnswers(answers.inspector, tally, phase);
    const { turned, landed, alerts } = answers.dials;
    tally.note(`${phase}: ${turned} turns of set-up dials, ${landed} reached the server as shown, ${alerts} alerts`);
  } finally {
    await answers.reader.close();
  }
  for (const context of generator.keys.keys()) deck.disappear(context);
  return launched;
}

async function countPresses(presses: KeyPresses, tally: Tally, phase: string): Promise<void> {
  const balance = await presses.settle(SETTLE_MS);
  tally.ok += balance.ok;
  tally.errors += balance.alert;
  tally.silentLosses += balance.unanswered;
  tally.expect(balance.extra === 0, `${balance.extra} transport key presses were answered more than once (${phase})`);
  tally.note(`${phase}: ${presses.total} transport key presses, ${balance.ok} OK, ${balance.alert} alerts, ${balance.unanswered} unanswered`);
}

async function countInspectorAnswers(inspector: InspectorRequests, tally: Tally, phase: string): Promise<void> {
  const balance = await inspector.settle(SETTLE_MS);
  tally.ok += balance.answered;
  tally.errors += balance.refused;
  tally.silentLosses += balance.unanswered;
  tally.expect(balance.extra === 0, `${balance.extra} more inspector answers than requests (${phase})`);
  for (const answer of balance.unclear.slice(0, 3)) tally.finding(`an inspector answer with neither items nor a clear error (${phase}): ${answer}`);
  if (balance.unclear.length > 3) tally.finding(`... ${balance.unclear.length - 3} more unclear inspector answers (${phase})`);
  tally.note(`${phase}: ${inspector.asked} inspector requests, ${balance.answered} answered, ${balance.refused} refused in words, ${balance.unanswered} unanswered`);
}

/** A turn the plugin must answer: a level dial set up right, on its dial, on the phase's server. */
function answersTurn(generator: DeckEventGenerator, url: string, key: KeyState | undefined, ticks: Wire): ticks is number {
  const turns = typeof ticks === 'number' && Number.isFinite(ticks) && Math.trunc(ticks) !== 0;
  return turns && key?.action === 'level' && key.controller === 'Encoder' && !key.multi && key.settingsRight && generator.globalHost === url;
}

/** Waits for the turn's answer, as the faults area does: the value on the server as shown, or an alert. */
async function countDialTurn(launched: LaunchedDeck, answers: Answers, context: string, key: KeyState, ticks: number, tally: Tally, phase: string): Promise<void> {
  const { dials, reader } = answers;
  dials.turned++;
  // Set up right: the generator's good level settings name both as text.
  const property = key.settings.property === 'brightness' ? 'brightness' : 'volume';
  const transport = typeof key.settings.transport === 'string' ? key.settings.transport : '';
  const outcome = await turnDial(launched.deck, context, ticks, () => levelPercent(reader, transport, property), SETTLE_MS);
  countTurnOutcome(outcome, tally, dials, `a turn of ${ticks} ticks on a set-up dial (${phase})`);
}

async function apply(launched: LaunchedDeck, generator: DeckEventGenerator, answers: Answers, event: DeckEvent, tally: Tally, phase: string): Promise<void> {
  const { deck } = launched;
  const { presses } = answers;
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
      if (key && answersTurn(generator, answers.url, key, event.ticks)) await countDialTurn(launched, answers, event.context, key, event.ticks, tally, phase);
      else deck.dialRotate(event.context, event.ticks as number);
      return;
    case 'global':
      deck.changeGlobalSettings(event.settings);
      return;
    case 'inspector':
      answers.inspector.ask(event.context, event.payload);
      return;
    case 'raw':
      deck.sendRaw(event.text);
  }
}

/** Puts a live key on the broken server and streams its malformed frames while the phase's events play. */
async function watchHostileLive(launched: LaunchedDeck, hostile: HostileServer): Promise<void> {
  // Its own host: global host changes among the events do not take it off the broken server.
  launched.deck.appear({ action: ACTIONS.fps, context: LIVE_KEY, settings: { target: 60, host: hostile.url } });
  await waitUntil(() => hostile.liveSockets > 0, 10_000);
  hostile.streamFrames(50);
}

/** After everything, a fresh level dial set up right still changes the volume: its turn lands on the server. */
async function checkDialLands(launched: LaunchedDeck, sim: Simulator, tally: Tally): Promise<void> {
  const { deck } = launched;
  const reader = new MediaServer({ host: sim.mediaServer.url, timeoutMs: 2000, retries: 0 });
  deck.appear({ action: ACTIONS.level, context: PROBE_DIAL, controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.05 } });
  try {
    const shown = await waitUntil(() => shownPercent(deck, PROBE_DIAL), 10_000);
    const outcome = await turnDial(deck, PROBE_DIAL, (shown ?? 0) >= 50 ? -1 : 1, () => levelPercent(reader, 'lobby', 'volume'), 10_000);
    tally.expect(outcome === 'ack', `a set-up level dial's turn did not land on the server after the generated events (showed ${String(shown)} %, outcome ${outcome})`);
  } finally {
    deck.disappear(PROBE_DIAL);
    await reader.close();
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
