import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { expandRows } from '../scripts/lib/editor-rows.mjs';

const expand = expandRows as (html: string, type: string) => string;

describe('the edit dialogs\' rows, written at build time', () => {
  it('writes a typed field with its type, its name/uid choice and its search button, shown only where it is read', () => {
    const html = expand('<stagelink-row field="track" icon="list-ol" kind="typed" by pick optional></stagelink-row>', 'stagelink-transport');
    const row = new WrittenRow(html);
    expect(row.classes).toBe('form-row stagelink-row-track');
    expect(row.ids).toEqual(['node-input-track', 'node-input-trackType', 'node-input-trackBy', 'stagelink-pick-track']);
    expect(html).toContain('data-i18n="stagelink-transport.label.track"');
    expect(html).toContain('data-i18n="stagelink-transport.by.uid"');
  });

  it('writes config-node fields, checkboxes, the name row and a select with its options', () => {
    expect(new WrittenRow(expand('<stagelink-row field="tls" icon="lock" config></stagelink-row>', 'stagelink-drive')).ids).toEqual(['node-config-input-tls']);
    expect(expand('<stagelink-row field="armed" kind="checkbox" row="machine"></stagelink-row>', 'stagelink-failover')).toMatch(
      /class="form-row stagelink-row-machine"[\s\S]*type="checkbox" id="node-input-armed"[\s\S]*data-i18n="stagelink-failover.label.armed"/,
    );
    expect(expand('<stagelink-row field="name"></stagelink-row>', 'stagelink-status')).toContain('data-i18n="node-red:common.label.name"');
    const select = expand('<stagelink-row field="store" kind="select">\n<option value="flow">flow</option>\n</stagelink-row>', 'stagelink-liveupdate-in');
    expect(select).toMatch(/<select id="node-input-store" style="width:70%;">\s*<option value="flow">flow<\/option>\s*<\/select>/);
  });

  it('refuses a row it cannot write rather than ship a dialog without the field', () => {
    expect(() => expand('<stagelink-row icon="x"></stagelink-row>', 't')).toThrow(/without a field/);
    expect(() => expand('<stagelink-row field="x" kind="slider"></stagelink-row>', 't')).toThrow(/unknown kind "slider"/);
  });
});

/** The ids and the row's classes in written markup, read with regular expressions (no DOM in this test). */
class WrittenRow {
  readonly ids: string[];
  readonly classes: string | undefined;
  constructor(html: string) {
    this.ids = [...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1] ?? '');
    this.classes = /<div class="([^"]+)">/.exec(html)?.[1];
  }
}
