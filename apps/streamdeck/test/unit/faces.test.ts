/**
 * Every key face in every state, checked as a 72 px key and as a 144 px one (the same SVG, scaled by the
 * Stream Deck app): text large enough, never running past the key's edge, readable against its background,
 * at most two lines, and each state told apart by a word or a symbol, not by colour alone.
 */
import { TRANSPORT_COMMANDS, type FpsAlert, type Severity } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { CLOCK_KEY_NAME, clockFace } from '../../src/render/clock-face.js';
import type { ClockAlert, ClockView } from '../../src/render/clock-view.js';
import { MIN_TEXT_CONTRAST, contrastRatio } from '../../src/render/contrast.js';
import { commandWord, cueFace, lateCueFace, type CueView, type TransportActivity } from '../../src/render/cue-face.js';
import { largeAnswersFailFace, noLinkFace, problemFace, setupFace, staleFace, waitingFace, type WaitingReason } from '../../src/render/faces.js';
import { TEXT_MARGIN } from '../../src/render/fit-text.js';
import { fpsFace } from '../../src/render/fps-face.js';
import { healthFace } from '../../src/render/health-face.js';
import { armedLayerFace, LAYER_KEY_NAME, layerFace, noLayerFace, notOfferedFace } from '../../src/render/layer-face.js';
import { palette } from '../../src/render/palette.js';
import { KEY_SIZE, keySvg, text } from '../../src/render/svg.js';
import { textWidth } from '../../src/render/text-width.js';
import { readCue } from '../../src/state/cues/cue.js';
import { readFace, wordsOf } from './face-reading.js';

/** The smallest text a key of this many pixels may show: 10 px on a standard key is 20 px on the canvas. */
const SMALLEST_TEXT_PX = { 72: 10, 144: 20 } as const;
type KeyPixels = keyof typeof SMALLEST_TEXT_PX;
const KEY_PIXELS = [72, 144] as const satisfies readonly KeyPixels[];

/** Arial's ascent and descent, as parts of the font size: how far a line reaches above and below its baseline. */
const ASCENT = 0.905;
const DESCENT = 0.212;
/** The status symbol's box ends here (with its stroke). */
const SYMBOL_BOTTOM = 50;

/** What is wrong with a face shown on a key of `pixels` pixels; empty when nothing is. */
function defectsOf(svg: string, pixels: KeyPixels): string[] {
  const scale = pixels / KEY_SIZE;
  const face = readFace(svg);
  const defects: string[] = [];
  if (face.texts.length > 2) defects.push(`${face.texts.length} lines of text`);
  let above = face.shapes === '' ? 0 : SYMBOL_BOTTOM;
  for (const line of face.texts) {
    const name = `"${line.content}"`;
    if (line.family !== 'Arial') defects.push(`${name} in ${line.family}`);
    if (line.size * scale < SMALLEST_TEXT_PX[pixels]) defects.push(`${name} at ${line.size * scale} px`);
    if (line.anchor !== 'middle') defects.push(`${name} not centred`);
    const half = textWidth(line.content, line.size, line.bold) / 2;
    if ((line.x - half) * scale < TEXT_MARGIN * scale || (line.x + half) * scale > (KEY_SIZE - TEXT_MARGIN) * scale) {
      defects.push(`${name} cut: ${Math.round(half * 2 * scale)} px wide`);
    }
    const top = line.y - ASCENT * line.size;
    const bottom = line.y + DESCENT * line.size;
    if (top < above || bottom > KEY_SIZE) defects.push(`${name} overlaps what is above it or leaves the key`);
    above = bottom;
    const contrast = contrastRatio(line.colour, face.background);
    if (contrast < MIN_TEXT_CONTRAST) defects.push(`${name} at ${contrast.toFixed(2)}:1 on ${face.background}`);
  }
  return defects;
}

function expectReadable(faces: readonly (readonly [string, string])[]): void {
  for (const pixels of KEY_PIXELS) {
    const defects = faces.flatMap(([title, svg]) => defectsOf(svg, pixels).map((defect) => `${title} at ${pixels} px: ${defect}`));
    expect(defects).toEqual([]);
  }
}

/** The text of the state line (the bottom one). */
const stateLine = (svg: string): string | undefined => wordsOf(svg).at(-1);

/** Pairs of states whose faces look the same once colour is taken away. */
function alikeWithoutColour(faces: Record<string, string>): string[] {
  const entries = Object.entries(faces);
  return entries.flatMap(([one, svg], index) =>
    entries.slice(index + 1).flatMap(([other, otherSvg]) => {
      const a = readFace(svg);
      const b = readFace(otherSvg);
      const sameWords = stateLine(svg) === stateLine(otherSvg);
      return sameWords && a.shapes === b.shapes ? [`${one} / ${other}`] : [];
    }),
  );
}

const LONG_NAME = 'Main Stage Upstage Projection Left';
const LONG_HOSTNAME = 'media-server-rack-2-understudy-07';
const ACTIVITIES: TransportActivity[] = ['playing', 'stopped', 'unknown', 'missing', 'no-link', 'large-answers-fail'];

/** Every command label a transport key can carry, from every command core knows. */
const COMMAND_LABELS = Object.keys(TRANSPORT_COMMANDS).map((command) => {
  const reading = readCue({ command });
  return reading.ok ? reading.cue.label : reading.label;
});

function cueViews(): CueView[] {
  const targets = [
    { name: 'main', transport: 'main' },
    { name: LONG_NAME, transport: LONG_NAME },
    { name: 'Intro', transport: 'main' },
    { name: 'Finale: Section 12', transport: LONG_NAME },
  ];
  return COMMAND_LABELS.flatMap((command) =>
    targets.flatMap((target) =>
      ACTIVITIES.flatMap((activity) =>
        [false, true].flatMap((sending) =>
          [undefined, true, false].map((engaged) => ({ command, ...target, activity, sending, ...(engaged === undefined ? {} : { engaged }) })),
        ),
      ),
    ),
  );
}

/** `shown` is `full`, or `full` with its middle taken out for an ellipsis. */
function isShortened(shown: string | undefined, full: string): boolean {
  if (shown === full) return true;
  const [head, tail, ...rest] = shown?.split('\u2026') ?? [];
  return head !== undefined && tail !== undefined && rest.length === 0 && full.startsWith(head) && full.endsWith(tail);
}

/** The state word a cue key owes the operator, if any. */
function cueStateWord(view: CueView): string | undefined {
  if (view.sending) return 'SENDING\u2026';
  if (view.activity === 'no-link') return 'NO LINK';
  if (view.engaged !== undefined) return view.engaged ? 'ENGAGED' : 'DISENGAGED';
  return { playing: 'PLAYING', missing: 'NOT FOUND', 'large-answers-fail': 'MTU?' }[view.activity as string];
}

const SEVERITIES: Severity[] = ['ok', 'ready', 'busy', 'warning', 'error', 'offline'];
const ALERTS: (FpsAlert | 'none')[] = ['ok', 'warning', 'error', 'none'];
const MACHINES = ['LOCAL', 'actor-1', 'DIRECTOR01', LONG_HOSTNAME];
const REASONS: WaitingReason[] = ['connecting', 'no data', 'loading'];
/** What the tiles name on their set-up, problem, waiting and no-link faces. */
const KEY_NAMES = ['FPS', 'HEALTH', 'SESSION', 'TRANSPORT', CLOCK_KEY_NAME, LAYER_KEY_NAME, ...MACHINES, ...COMMAND_LABELS.map(commandWord)];

describe('the audit of a face', () => {
  it('finds what the faces before 72 px keys got wrong: small text, cut labels, white on amber, three lines', () => {
    const old = keySvg(
      palette.warning,
      text('HEALTH SESSION', { y: 28, size: 16, colour: '#ffffff' }),
      text('WARNING', { y: 84, size: 24, colour: '#ffffff', bold: true }),
      text('Main Stage \u00b7 NO LINK', { y: 124, size: 13, colour: '#ffffff' }),
    );
    const defects = defectsOf(old, 72);
    expect(defects).toContain('3 lines of text');
    expect(defects.some((defect) => defect.startsWith('"HEALTH SESSION" cut'))).toBe(true);
    expect(defects).toContain('"Main Stage \u00b7 NO LINK" at 6.5 px');
    expect(defects.some((defect) => /"WARNING" at 2\.\d+:1/.test(defect))).toBe(true);
  });
});

describe('cue faces', () => {
  const views = cueViews();

  it('are readable at 72 and 144 px for every command, name and state', () => {
    expectReadable(views.map((view) => [JSON.stringify(view), cueFace(view)]));
  });

  it('show the state word whole on its own line, and shorten only the name', () => {
    for (const view of views) {
      const title = JSON.stringify(view);
      const [top, bottom] = wordsOf(cueFace(view));
      const state = cueStateWord(view);
      const command = commandWord(view.command);
      if (view.name === view.transport) {
        expect(top, title).toBe(command);
        if (state) expect(bottom, title).toBe(state);
        else expect(isShortened(bottom, view.transport), title).toBe(true);
      } else if (state) {
        expect(isShortened(top, view.name), title).toBe(true);
        expect(bottom, title).toBe(state);
      } else {
        // A name too long for one line takes both while there is no state to tell.
        expect(bottom === command ? isShortened(top, view.name) : isShortened(`${top} ${bottom}`, view.name), title).toBe(true);
      }
    }
  });

  it('no longer cuts the state of a long transport: "Main Stage · NO…" is now PLAY over NO LINK', () => {
    expect(wordsOf(cueFace({ command: 'PLAY', name: 'Main Stage', transport: 'Main Stage', activity: 'no-link' }))).toEqual(['PLAY', 'NO LINK']);
    expect(wordsOf(cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: 'Transport 1', activity: 'playing' }))).toEqual(['Intro', 'PLAYING']);
  });

  it('shows what the key does when the transport has no state to tell', () => {
    expect(wordsOf(cueFace({ command: 'NEXT SECTION', name: 'main', transport: 'main', activity: 'stopped' }))).toEqual(['NEXT SECT.', 'main']);
    expect(wordsOf(cueFace({ command: 'GO TO TRACK', name: 'Intro', transport: 'main', activity: 'unknown' }))).toEqual(['Intro', '\u2192 TRACK']);
  });

  it('puts a long name on two lines while there is no state, and shortens it in its middle when there is', () => {
    expect(wordsOf(cueFace({ command: 'GO TO SECTION', name: 'Finale: Section 3', transport: 'main', activity: 'stopped' }))).toEqual(['Finale:', 'Section 3']);

    const [name, state] = wordsOf(cueFace({ command: 'GO TO NOTE', name: 'Finale: the long slow fade Section 12', transport: 'main', activity: 'playing' }));
    expect(name).toMatch(/^Finale.*\u2026.*12$/);
    expect(state).toBe('PLAYING');
  });

  it('tell every state apart without colour', () => {
    const view = { command: 'ENGAGE', name: 'main', transport: 'main' } as const;
    expect(
      alikeWithoutColour({
        playing: cueFace({ ...view, activity: 'playing' }),
        stopped: cueFace({ ...view, activity: 'stopped' }),
        missing: cueFace({ ...view, activity: 'missing' }),
        'no-link': cueFace({ ...view, activity: 'no-link' }),
        'large-answers-fail': cueFace({ ...view, activity: 'large-answers-fail' }),
        sending: cueFace({ ...view, activity: 'stopped', sending: true }),
        engaged: cueFace({ ...view, activity: 'stopped', engaged: true }),
        disengaged: cueFace({ ...view, activity: 'stopped', engaged: false }),
      }),
    ).toEqual([]);
  });

  it('say LANDED LATE or OUTCOME UNKNOWN after a cue whose answer came late, readable at 72 and 144 px', () => {
    const landed = lateCueFace('landed');
    const unknown = lateCueFace('unknown');
    expect(wordsOf(landed)).toEqual(['LANDED', 'LATE']);
    expect(wordsOf(unknown)).toEqual(['OUTCOME', 'UNKNOWN']);
    expectReadable([
      ['landed', landed],
      ['unknown', unknown],
      ['landed, titled', lateCueFace('landed', true)],
      ['unknown, titled', lateCueFace('unknown', true)],
    ]);
    expect(alikeWithoutColour({ landed, unknown, sending: cueFace({ command: 'PLAY', name: 'main', transport: 'main', activity: 'stopped', sending: true }) })).toEqual([]);
    // Under an operator's title the symbol's place is left to it.
    expect(readFace(lateCueFace('unknown', true)).shapes).toBe('');
  });

  it('escapes names that look like markup', () => {
    const svg = cueFace({ command: 'GO TO TRACK', name: '<i>A&B</i>', transport: 'main', activity: 'stopped' });
    expect(svg).not.toContain('<i>');
    expect(wordsOf(svg)[0]).toBe('<i>A&B</i>');
  });
});

describe('FPS faces', () => {
  const readings = ALERTS.flatMap((alert) =>
    MACHINES.flatMap((machine) => [0, 5.5, 59.94, 120, 1000].map((fps) => ({ machine, fps, alert }))),
  );

  it('are readable at 72 and 144 px for every alert, machine and value', () => {
    expectReadable(readings.map((reading) => [JSON.stringify(reading), fpsFace(reading)]));
  });

  it('show the value whole on its own line, under the machine', () => {
    expect(wordsOf(fpsFace({ machine: 'LOCAL', fps: 59.94, alert: 'ok' }))).toEqual(['LOCAL', '59.9 FPS']);
    for (const reading of readings) expect(stateLine(fpsFace(reading))).toMatch(/^\d+(\.\d)? FPS$/);
  });

  it('tell every alert apart without colour', () => {
    const faces = Object.fromEntries(ALERTS.map((alert) => [alert, fpsFace({ machine: 'LOCAL', fps: 50, alert })]));
    expect(alikeWithoutColour(faces)).toEqual([]);
  });
});

describe('health faces', () => {
  const scopes = ['SESSION', ...MACHINES];

  it('are readable at 72 and 144 px for every severity, of the session and of one machine', () => {
    expectReadable(SEVERITIES.flatMap((severity) => scopes.map((scope) => [`${scope} ${severity}`, healthFace({ scope, severity })] as const)));
  });

  it('name the scope whole where it fits: no more "HEALTH SESSI…"', () => {
    expect(wordsOf(healthFace({ scope: 'SESSION', severity: 'warning' }))).toEqual(['SESSION', 'WARNING']);
    expect(wordsOf(healthFace({ scope: 'DIRECTOR01', severity: 'ready' }))).toEqual(['DIRECTOR01', 'OK']);
  });

  it('tell every severity apart by word and symbol as well as by colour', () => {
    const faces = Object.fromEntries(SEVERITIES.filter((severity) => severity !== 'ready').map((severity) => [severity, healthFace({ scope: 'SESSION', severity })]));
    const words = Object.values(faces).map(stateLine);
    expect(new Set(words).size).toBe(words.length);
    const symbols = Object.values(faces).map((svg) => readFace(svg).shapes);
    expect(new Set(symbols).size).toBe(symbols.length);
  });

  it('keep OFFLINE for a machine the session reports offline, and NO LINK for our own link', () => {
    const offline = healthFace({ scope: 'actor-1', severity: 'offline' });
    const noLink = noLinkFace('actor-1');
    expect(stateLine(offline)).toBe('OFFLINE');
    expect(stateLine(noLink)).toBe('NO LINK');
    expect(alikeWithoutColour({ offline, noLink })).toEqual([]);
  });
});

describe('the faces every key shares', () => {
  const shared = KEY_NAMES.flatMap((name) => [
    [`no link ${name}`, noLinkFace(name)],
    [`stale ${name}`, staleFace(name)],
    [`large answers fail ${name}`, largeAnswersFailFace(name)],
    [`set up ${name}`, setupFace(name)],
    [`problem ${name}`, problemFace(name)],
    ...REASONS.map((reason) => [`waiting ${reason} ${name}`, waitingFace(name, reason)] as const),
  ] as const);

  it('are readable at 72 and 144 px with every name a key gives them', () => {
    expectReadable(shared);
  });

  it('keep every command and scope whole', () => {
    for (const name of [...KEY_NAMES].filter((candidate) => candidate !== LONG_HOSTNAME)) expect(wordsOf(setupFace(name))).toEqual([name, 'SET UP']);
  });

  it('never show a number while there is no value', () => {
    for (const reason of REASONS) expect(wordsOf(waitingFace('FPS', reason)).join(' ')).not.toMatch(/\d/);
    expect(wordsOf(noLinkFace('LOCAL')).join(' ')).not.toMatch(/\d/);
    expect(wordsOf(staleFace('LOCAL')).join(' ')).not.toMatch(/\d/);
  });

  it('say STALE for a value that stopped and MTU? for answers cut short, each apart from NO LINK', () => {
    expect(wordsOf(staleFace('LOCAL'))).toEqual(['LOCAL', 'STALE']);
    expect(wordsOf(largeAnswersFailFace('SESSION'))).toEqual(['SESSION', 'MTU?']);
    const noLink = noLinkFace('LOCAL');
    for (const face of [staleFace('LOCAL'), largeAnswersFailFace('LOCAL')]) {
      expect(readFace(face).background).not.toBe(readFace(noLink).background);
      expect(readFace(face).shapes).not.toBe(readFace(noLink).shapes);
    }
  });

  it('tell each other apart without colour', () => {
    expect(
      alikeWithoutColour({
        noLink: noLinkFace('LOCAL'),
        stale: staleFace('LOCAL'),
        largeAnswersFail: largeAnswersFailFace('LOCAL'),
        setUp: setupFace('LOCAL'),
        problem: problemFace('LOCAL'),
        ...Object.fromEntries(REASONS.map((reason) => [reason, waitingFace('LOCAL', reason)])),
      }),
    ).toEqual([]);
  });
});

describe('show clock faces', () => {
  const DIGITS = ['0:00', '0:05', '9:59', '59:59', '1:00:00', '12:34:56', '--'];
  const LABELS = ['SECTION 0', 'SECTION 12', 'TRACK END', 'NO CUE', 'Preshow', 'Five minute call', LONG_NAME];
  const LOOKS: { alert: ClockAlert; lit: boolean }[] = [
    { alert: 'none', lit: false },
    { alert: 'warn', lit: true },
    { alert: 'flash', lit: true },
    { alert: 'flash', lit: false },
  ];
  const CALM = { alert: 'none', lit: false } as const;
  const clock = (digits: string, label: string, look: { alert: ClockAlert; lit: boolean }): ClockView => ({ kind: 'clock', transport: 'main', digits, label, progress: 0.5, ...look });
  const sizeOf = (svg: string, index: number): number => readFace(svg).texts[index]?.size ?? 0;

  it('are readable at 72 and 144 px for every length of clock, label and alert', () => {
    expectReadable(DIGITS.flatMap((digits) => LABELS.flatMap((label) => LOOKS.map((look) => [`${digits} ${label} ${JSON.stringify(look)}`, clockFace(clock(digits, label, look))] as const))));
  });

  it('draw the digits big and whole over what they count', () => {
    const face = clockFace(clock('1:23', 'SECTION 2', CALM));
    expect(wordsOf(face)).toEqual(['1:23', 'SECTION 2']);
    // 30 px on a 72 px key: three times the smallest text a key shows.
    expect(sizeOf(face, 0)).toBe(60);
    for (const digits of DIGITS) expect(wordsOf(clockFace(clock(digits, LONG_NAME, CALM)))[0]).toBe(digits);
    // Even a show past ten hours keeps its digits at 15 px or more on a 72 px key.
    expect(sizeOf(clockFace(clock('12:34:56', 'TRACK END', CALM)), 0)).toBeGreaterThanOrEqual(30);
  });

  it('turn orange under the warning threshold and blink between orange and dark under the flashing one', () => {
    const [none, warn, lit, dark] = LOOKS.map((look) => readFace(clockFace(clock('0:04', 'SECTION 2', look))));
    expect(none?.background).toBe(palette.neutral);
    expect(warn?.background).toBe(palette.warning);
    expect(lit?.background).toBe(palette.warning);
    expect(dark?.background).toBe(palette.neutral);
    // The dark half still reads as the alert: orange digits, not the calm white.
    expect(dark?.texts[0]?.colour).toBe(palette.caution);
    expect(none?.texts[0]?.colour).toBe(palette.text);
  });

  it('show the shared faces, with the transport and no number, whenever the clock is not live', () => {
    const faces: Record<string, string> = {
      stale: clockFace({ kind: 'stale', transport: 'main' }),
      noLink: clockFace({ kind: 'noLink', transport: 'main' }),
      connecting: clockFace({ kind: 'waiting', transport: 'main', reason: 'connecting' }),
      noData: clockFace({ kind: 'waiting', transport: 'main', reason: 'no data' }),
      largeAnswersFail: clockFace({ kind: 'largeAnswersFail', transport: 'main' }),
      problem: clockFace({ kind: 'problem', transport: 'main' }),
      setUp: clockFace({ kind: 'setup', transport: undefined }),
      clock: clockFace(clock('1:23', 'SECTION 2', CALM)),
    };
    expect(wordsOf(faces['stale'] ?? '')).toEqual(['main', 'STALE']);
    expect(wordsOf(faces['noLink'] ?? '')).toEqual(['main', 'NO LINK']);
    expect(wordsOf(faces['setUp'] ?? '')).toEqual([CLOCK_KEY_NAME, 'SET UP']);
    for (const [state, svg] of Object.entries(faces)) if (state !== 'clock') expect(wordsOf(svg).join(' '), state).not.toMatch(/\d/);
    expect(alikeWithoutColour(faces)).toEqual([]);
    expectReadable(Object.entries(faces).map(([state, svg]) => [state, svg] as const));
  });
});

describe('RenderStream layer faces', () => {
  const LAYERS = ['Unreal Stage', 'Notch FX', 'TouchDesigner Data', LONG_NAME];
  const STATES = ['running', 'error', 'starting', 'stopped', 'Degraded'];

  it('are readable at 72 and 144 px for every layer, workload state and key state', () => {
    expectReadable([
      ...LAYERS.flatMap((layer) => STATES.map((state) => [`${layer} ${state}`, layerFace(layer, state)] as const)),
      ...LAYERS.flatMap((layer) => [[`no layer ${layer}`, noLayerFace(layer)] as const, [`not offered ${layer}`, notOfferedFace(layer)] as const]),
      ...(['restart', 'start', 'stop'] as const).map((operation) => [`armed ${operation}`, armedLayerFace(operation)] as const),
    ]);
  });

  it("name the layer over its workload's state as a word, in the health colours", () => {
    expect(wordsOf(layerFace('Unreal Stage', 'running'))).toEqual(['Unreal Stage', 'RUNNING']);
    expect(readFace(layerFace('Unreal Stage', 'running')).background).toBe(palette.ok);
    expect(readFace(layerFace('Unreal Stage', 'error')).background).toBe(palette.error);
    expect(readFace(layerFace('Unreal Stage', 'starting')).background).toBe(palette.warning);
    expect(readFace(layerFace('Unreal Stage', 'stopped')).background).toBe(palette.neutral);
    // A word the plugin does not know is shown as the director says it, not hidden.
    expect(stateLine(layerFace('Unreal Stage', 'Degraded'))).toBe('DEGRADED');
    // A long name is shortened in its middle; the state stays whole.
    const [name, state] = wordsOf(layerFace(LONG_NAME, 'error'));
    expect(isShortened(name, LONG_NAME)).toBe(true);
    expect(state).toBe('ERROR');
  });

  it('say PRESS AGAIN while armed, NO LAYER for a name the director does not list, and N/A without RenderStream', () => {
    expect(wordsOf(armedLayerFace('restart'))).toEqual(['RESTART?', 'PRESS AGAIN']);
    expect(wordsOf(armedLayerFace('stop'))).toEqual(['STOP?', 'PRESS AGAIN']);
    expect(wordsOf(noLayerFace('Unreal Stag'))).toEqual(['Unreal Stag', 'NO LAYER']);
    expect(wordsOf(notOfferedFace('Unreal Stage'))).toEqual(['Unreal Stage', 'N/A']);
  });

  it('tell every state apart without colour, and from the faces every key shares', () => {
    expect(
      alikeWithoutColour({
        ...Object.fromEntries(STATES.map((state) => [state, layerFace('Notch FX', state)])),
        armed: armedLayerFace('restart'),
        noLayer: noLayerFace('Notch FX'),
        notOffered: notOfferedFace('Notch FX'),
        stale: staleFace('Notch FX'),
        noLink: noLinkFace('Notch FX'),
        problem: problemFace('Notch FX'),
        connecting: waitingFace('Notch FX', 'connecting'),
      }),
    ).toEqual([]);
  });
});
