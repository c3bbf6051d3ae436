/**
 * The health face with a hardware fault beside the session's health: the fault word in a box in the symbol's place,
 * on the colour of its severity, readable on a 72 px key; and which machine's fault a key shows.
 */
import type { HardwareSnapshot, Severity } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../src/render/contrast.js';
import { MIN_TEXT_SIZE } from '../../src/render/fit-text.js';
import { hardwareSignOf, healthFace, type HardwareSign } from '../../src/render/health-face.js';
import { palette, severityColour } from '../../src/render/palette.js';
import { KEY_SIZE } from '../../src/render/svg.js';
import { textWidth } from '../../src/render/text-width.js';
import { readFace, wordsOf } from './face-reading.js';

const ASCENT = 0.905;
const DESCENT = 0.212;

/** The box the fault word is drawn in. */
function bannerOf(svg: string): { x: number; y: number; width: number; height: number; fill: string; stroke: string } | undefined {
  const match = /<rect x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)" rx="8" ry="8" fill="(#[0-9a-f]{6})" stroke="(#[0-9a-f]{6})"/.exec(svg);
  if (!match) return undefined;
  const [, x, y, width, height, fill = '', stroke = ''] = match;
  return { x: Number(x), y: Number(y), width: Number(width), height: Number(height), fill, stroke };
}

const FAULT_WORDS = ['FAN', 'HOT', 'POWER', 'OUTPUT', 'OFFLINE', 'STALE'];
const FAULT_SEVERITIES: HardwareSign['severity'][] = ['warning', 'error', 'offline'];
const SESSION_SEVERITIES: Severity[] = ['ok', 'busy', 'warning', 'error', 'offline'];
const SCOPES = ['SESSION', 'DIRECTOR01', 'actor-1'];

function snapshot(changes: Partial<HardwareSnapshot>): HardwareSnapshot {
  return { machine: 'ACTOR01', status: 'online', power: 'on', faults: [], temperatures: [], fans: [], outputs: [], severity: 'ok', reasons: [], ...changes };
}

describe('the health face with a hardware fault', () => {
  it('shows the fault word above the scope and the session word, both whole', () => {
    const svg = healthFace({ scope: 'SESSION', severity: 'ok', hardware: { word: 'FAN', severity: 'error', machine: 'ACTOR01' } });
    expect(wordsOf(svg)).toEqual(['FAN', 'SESSION', 'OK']);
    expect(readFace(svg).background).toBe(palette.ok);
    expect(bannerOf(svg)?.fill).toBe(palette.error);
  });

  it('draws the symbol and no box while the hardware is ok', () => {
    const svg = healthFace({ scope: 'ACTOR01', severity: 'warning' });
    expect(wordsOf(svg)).toEqual(['ACTOR01', 'WARNING']);
    expect(bannerOf(svg)).toBeUndefined();
  });

  it('colours the box by the fault severity, as health is coloured', () => {
    for (const severity of FAULT_SEVERITIES) {
      expect(bannerOf(healthFace({ scope: 'SESSION', severity: 'ok', hardware: { word: 'HOT', severity, machine: 'A' } }))?.fill).toBe(severityColour(severity));
    }
  });

  it('is readable at 72 px for every fault, severity and scope: the word large, whole in its box, with enough contrast', () => {
    const defects: string[] = [];
    for (const word of FAULT_WORDS) {
      for (const severity of FAULT_SEVERITIES) {
        for (const health of SESSION_SEVERITIES) {
          for (const scope of SCOPES) {
            const svg = healthFace({ scope, severity: health, hardware: { word, severity, machine: 'A' } });
            const title = `${word} ${severity} over ${scope} ${health}`;
            const box = bannerOf(svg);
            const [fault, ...lines] = readFace(svg).texts;
            const background = readFace(svg).background;
            if (!box || !fault) {
              defects.push(`${title}: no box`);
              continue;
            }
            // 10 px on a standard key is 20 px on the canvas.
            if (fault.size < MIN_TEXT_SIZE) defects.push(`${title}: the word at ${fault.size / 2} px on a 72 px key`);
            const half = textWidth(fault.content, fault.size, fault.bold) / 2;
            if (fault.content !== word || fault.x - half < box.x + 2 || fault.x + half > box.x + box.width - 2) defects.push(`${title}: the word cut or out of its box`);
            if (fault.y - ASCENT * fault.size < box.y || fault.y + DESCENT * fault.size > box.y + box.height) defects.push(`${title}: the word leaves its box`);
            if (contrastRatio(fault.colour, box.fill) < MIN_TEXT_CONTRAST) defects.push(`${title}: the word at ${contrastRatio(fault.colour, box.fill).toFixed(2)}:1`);
            // The box stands apart from a background of the same colour by its outline, in the face's ink.
            if (contrastRatio(box.stroke, background) < 3) defects.push(`${title}: the box's outline does not show`);
            let above = box.y + box.height;
            for (const line of lines) {
              if (line.y - ASCENT * line.size < above || line.y + DESCENT * line.size > KEY_SIZE) defects.push(`${title}: "${line.content}" overlaps`);
              above = line.y + DESCENT * line.size;
              if (contrastRatio(line.colour, background) < MIN_TEXT_CONTRAST) defects.push(`${title}: "${line.content}" faint`);
            }
          }
        }
      }
    }
    expect(defects).toEqual([]);
  });
});

describe('which hardware fault a health key shows', () => {
  it('shows nothing while every machine is ok, or none has been read', () => {
    expect(hardwareSignOf([])).toBeUndefined();
    expect(hardwareSignOf([snapshot({}), snapshot({ machine: 'ACTOR02' })])).toBeUndefined();
  });

  it("shows core's word for a stopped fan, a hot machine, a power fault and an output card", () => {
    expect(hardwareSignOf([snapshot({ severity: 'error', reasons: ['Fan 2 has stopped (0 RPM)'] })])).toEqual({ word: 'FAN', severity: 'error', machine: 'ACTOR01' });
    expect(hardwareSignOf([snapshot({ severity: 'warning', reasons: ['CPU Temp is at 85 °C, over its 80 °C warning line'] })])?.word).toBe('HOT');
    expect(hardwareSignOf([snapshot({ severity: 'error', faults: ['Main Power Fault'], reasons: ['Main Power Fault is set'] })])?.word).toBe('POWER');
    expect(hardwareSignOf([snapshot({ severity: 'warning', reasons: ['the output card in slot 1 (DP-4) reports no signal'] })])).toMatchObject({ word: 'OUTPUT', severity: 'warning' });
  });

  it('shows an SMC that stopped answering as OFFLINE, never its last reading', () => {
    const sign = hardwareSignOf([snapshot({ status: 'offline', severity: 'error', reasons: ['the management controller did not answer within 5 s'] })]);
    expect(sign).toEqual({ word: 'OFFLINE', severity: 'offline', machine: 'ACTOR01' });
    const svg = healthFace({ scope: 'ACTOR01', severity: 'ok', ...(sign ? { hardware: sign } : {}) });
    expect(wordsOf(svg)[0]).toBe('OFFLINE');
    expect(bannerOf(svg)?.fill).toBe(palette.machineOffline);
  });

  it('shows the worst machine of the session: offline over an error over a warning', () => {
    const warm = snapshot({ machine: 'ACTOR01', severity: 'warning', reasons: ['CPU Temp is at 85 °C, over its 80 °C warning line'] });
    const fan = snapshot({ machine: 'ACTOR02', severity: 'error', reasons: ['Fan 1 has stopped (0 RPM)'] });
    const silent = snapshot({ machine: 'ACTOR03', status: 'offline', severity: 'error', reasons: ['the management controller did not answer'] });
    expect(hardwareSignOf([warm, fan])?.machine).toBe('ACTOR02');
    expect(hardwareSignOf([warm, silent, fan])?.machine).toBe('ACTOR03');
    expect(hardwareSignOf([snapshot({ machine: 'DIRECTOR01' }), warm])?.machine).toBe('ACTOR01');
  });
});
