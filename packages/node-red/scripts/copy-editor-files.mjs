// Copies each node's editor .html next to its built .js, and its help and messages into dist/nodes/locales,
// where Node-RED looks for them. The request node's endpoint list is written from core's catalogue here, so the
// editor offers exactly the endpoints the runtime can call, and the transport node's commands, their fields and
// its playmode choices from core, so the editor offers exactly what the runtime reads and a director takes; the
// failover node's operations likewise, with the machine row for those that act on one machine.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandRows } from './lib/editor-rows.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'nodes');
const target = join(root, 'dist', 'nodes');
const { endpointList, FAILOVER_MACHINE_OPERATIONS, FAILOVER_OPERATIONS, needsConfirmation, PLAYMODES, TRANSPORT_COMMANDS } = createRequire(import.meta.url)('@stagelink/core');

const ENDPOINTS_MARKER = '/* stagelink:endpoints */ []';
const PLAYMODES_MARKER = '/* stagelink:playmodes */ []';
const COMMANDS_MARKER = '/* stagelink:transport-commands */ {}';
const FAILOVER_MARKER = '/* stagelink:failover-operations */ {}';
// NotSet means "leave the play state as it is", which an empty playmode already says.
const PLAYMODE_CHOICES = PLAYMODES.filter((playmode) => playmode !== 'NotSet');

mkdirSync(target, { recursive: true });
for (const type of readdirSync(source)) {
  const folder = join(source, type);
  let html = expandRows(readFileSync(join(folder, `${type}.html`), 'utf8'), type);
  if (type === 'stagelink-request') {
    if (!html.includes(ENDPOINTS_MARKER)) throw new Error(`${type}.html lost its endpoint marker ${ENDPOINTS_MARKER}`);
    const list = endpointList.map((spec) => {
      const { id, group, operation, method, path, query, summary } = spec;
      return { id, group, operation, method, path, query, summary, confirm: needsConfirmation(spec) };
    });
    html = html.replace(ENDPOINTS_MARKER, JSON.stringify(list));
  }
  if (type === 'stagelink-transport') {
    if (!html.includes(PLAYMODES_MARKER)) throw new Error(`${type}.html lost its playmode marker ${PLAYMODES_MARKER}`);
    if (!html.includes(COMMANDS_MARKER)) throw new Error(`${type}.html lost its command marker ${COMMANDS_MARKER}`);
    const fields = Object.fromEntries(Object.entries(TRANSPORT_COMMANDS).map(([command, { required, optional }]) => [command, [...required, ...optional]]));
    html = html.replace(PLAYMODES_MARKER, JSON.stringify(PLAYMODE_CHOICES)).replace(COMMANDS_MARKER, JSON.stringify(fields));
  }
  if (type === 'stagelink-failover') {
    if (!html.includes(FAILOVER_MARKER)) throw new Error(`${type}.html lost its operation marker ${FAILOVER_MARKER}`);
    const rows = Object.keys(FAILOVER_OPERATIONS).map((operation) => [operation, FAILOVER_MACHINE_OPERATIONS.includes(operation) ? ['machine'] : []]);
    html = html.replace(FAILOVER_MARKER, JSON.stringify(Object.fromEntries(rows)));
  }
  writeFileSync(join(target, `${type}.html`), html);
  const locales = join(folder, 'locales');
  if (existsSync(locales)) cpSync(locales, join(target, 'locales'), { recursive: true });
}

// Help every node shares (its references), that every node with a setting shares (timeout, TLS) or that every
// guarded node shares (how a confirmation is used up), kept once per language in src/help/ as
// `<part>.<language>.html` (en-US where a language has none of its own): a marker `<!-- stagelink:<part> -->` in a
// node's help stands for it, on a line of its own or inside a sentence; the part's lines are indented as the
// marker's line is.
const HELP_PART = /^( *)(.*?)<!-- stagelink:([a-z-]+) -->/gm;
const help = join(root, 'src', 'help');
const helpPart = (part, language) => {
  const own = join(help, `${part}.${language}.html`);
  return readFileSync(existsSync(own) ? own : join(help, `${part}.en-US.html`), 'utf8').trimEnd();
};
for (const language of readdirSync(join(target, 'locales'))) {
  for (const file of readdirSync(join(target, 'locales', language)).filter((name) => name.endsWith('.html'))) {
    const path = join(target, 'locales', language, file);
    const text = readFileSync(path, 'utf8');
    const filled = text.replace(HELP_PART, (_line, indent, before, part) => `${indent}${before}${helpPart(part, language).replace(/\n/g, `\n${indent}`)}`);
    if (filled !== text) writeFileSync(path, filled);
  }
}
