// The docs against the code, so a page a venue follows offline never shows a flag that is refused, a name that is
// gone, a link to nothing or a version the packages do not ask for:
// - every `--flag` shown with a stagelink command (the bridge, the simulator, stagelink-report, `pnpm start`) is in
//   that command's parser, and every flag shown on its own in `code` is in one of them (or a known other tool's);
// - every STAGELINK_* name (environment variables, error codes) is in the code;
// - every relative link resolves, to a file and, for a Markdown file, to one of its headings;
// - the Node.js, Node-RED, Companion and Stream Deck versions stated as a minimum are the ones the packages'
//   engines and manifests ask for.
// The parsers are read from their source, so a flag added or removed there is known here without a build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where each command's flags are declared, and how a page calls it. */
const COMMANDS = [
  {
    name: 'stagelink-bridge',
    source: 'packages/bridge/src/cli-args.ts',
    // The three sets the parser takes flags from: with a value, with an optional value, and switches.
    flags: (text) => setsNamed(text, ['VALUE_FLAGS', 'OPTIONAL_VALUE_FLAGS', 'SWITCHES']).map((name) => `--${name}`),
    calls: [/(?<![\w/.-])stagelink-bridge(?![\w.-])/g, /\bbridge\/dist\/cli\.mjs\b/g],
  },
  {
    name: 'stagelink-sim',
    source: 'packages/simulator/src/cli-args.ts',
    flags: (text) => objectKeys(between(text, 'options: {', '\n      },')).map((name) => `--${name}`),
    calls: [/(?<![\w/.-])stagelink-sim(?![\w.-])/g, /\bsimulator\/dist\/cli\.mjs\b/g, /@stagelink\/simulator start\b/g],
  },
  {
    name: 'stagelink-report',
    source: 'packages/bridge/src/report/report-args.ts',
    flags: (text) => [...between(text, 'const VALUE_FLAGS = new Map([', ']);').matchAll(/\['(--[a-z-]+)'/g)].map((match) => match[1]).concat(text.includes("'--help'") ? ['--help'] : []),
    calls: [/(?<![\w/.-])stagelink-report(?![\w.-])/g, /\breport-cli\.mjs\b/g],
  },
  {
    name: 'pnpm start',
    source: 'tools/venue/lib/start-options.mjs',
    flags: (text) => objectKeys(between(text, 'export const START_OPTIONS = {', '\n};')).map((name) => `--${name}`),
    calls: [/\bpnpm start(?![\w-])/g],
  },
];

/** Flags of other tools the pages show in `code` on their own (pnpm, npm, Node.js, apt, the bench and hardening runners). */
export const OTHER_TOOLS_FLAGS = new Set([
  '--filter',
  '--frozen-lockfile',
  '--offline',
  '--global',
  '--prefix',
  '--no-install-recommends',
  '--experimental-websocket',
  '--expose-gc',
  '--trace-gc',
  '--heapsnapshot-signal',
  '--heap-snapshots',
]);

/** The minimum Companion that hosts each major version of `@companion-module/base` (4.2 refuses base 2: "Module Api version is too new"). */
export const COMPANION_FOR_BASE = { 2: '4.3' };

/** Pages about the test lanes and measurements, whose Node versions are those of the runs, not requirements. */
const VERSION_CLAIMS_SKIPPED = [/^bench\//, /^node24\//, /^hardening\//];

/**
 * Checks the Markdown files under `docsRoot` (default `root`) against the code under `root`. Answers the problems,
 * each `<file>:<line>: <what>`; none when the docs hold.
 */
export function checkDocs({ root, docsRoot = root }) {
  const problems = [];
  const commands = COMMANDS.map((command) => ({ ...command, known: readFlags(root, command, problems) }));
  const everyFlag = new Set(commands.flatMap((command) => [...command.known]));
  const versions = requiredVersions(root);
  const namesInCode = stagelinkNamesIn(root);
  const pages = markdownFiles(docsRoot);
  for (const page of pages) {
    const text = readFileSync(join(docsRoot, page), 'utf8');
    const at = (index) => `${page}:${text.slice(0, index).split('\n').length}`;
    for (const { snippet, index } of codeSnippets(text)) {
      for (const command of commands) {
        for (const flag of flagsCalledWith(snippet, command.calls)) {
          if (!command.known.has(flag)) problems.push(`${at(index)}: ${command.name} has no flag ${flag} (${command.source})`);
        }
      }
      const alone = /^(--[a-z][a-z0-9-]*)/.exec(snippet.text);
      if (snippet.inline && alone?.[1] && !everyFlag.has(alone[1]) && !OTHER_TOOLS_FLAGS.has(alone[1])) {
        problems.push(`${at(index)}: ${alone[1]} is a flag of no stagelink command (${commands.map(({ name }) => name).join(', ')})`);
      }
    }
    for (const match of text.matchAll(/\bSTAGELINK_[A-Z0-9_]*[A-Z0-9]\b/g)) {
      if (!namesInCode.has(match[0])) problems.push(`${at(match.index)}: ${match[0]} is named nowhere in the code`);
    }
    for (const { target, index } of relativeLinks(text)) {
      const problem = linkProblem(docsRoot, page, target);
      if (problem) problems.push(`${at(index)}: ${problem}`);
    }
    if (!VERSION_CLAIMS_SKIPPED.some((skipped) => skipped.test(page))) {
      for (const { index, problem } of versionProblems(text, versions)) problems.push(`${at(index)}: ${problem}`);
    }
  }
  return problems;
}

function readFlags(root, command, problems) {
  const file = join(root, command.source);
  const flags = existsSync(file) ? command.flags(readFileSync(file, 'utf8')) : [];
  if (flags.length === 0) problems.push(`${command.source}: no flags of ${command.name} found: the docs check reads them from this file`);
  return new Set(flags);
}

/** The string items of `const NAME = new Set([...])` for each name. */
function setsNamed(text, names) {
  return names.flatMap((name) => [...between(text, `const ${name} = new Set([`, '])').matchAll(/'([a-z-]+)'/g)].map((match) => match[1]));
}

/** The keys of an object literal's lines (`name: {` or `'name-with-dash': {`). */
function objectKeys(text) {
  return [...text.matchAll(/^\s*'?([a-z][a-z-]*)'?:\s*\{/gm)].map((match) => match[1]);
}

function between(text, start, end) {
  const from = text.indexOf(start);
  if (from === -1) return '';
  const to = text.indexOf(end, from + start.length);
  return to === -1 ? '' : text.slice(from + start.length, to);
}

/**
 * The code of a page: each line of a fenced block (lines ending in `\` joined to the next, as the shell reads
 * them) and each inline code span, with where it starts.
 */
function codeSnippets(text) {
  const snippets = [];
  const fence = /^(```|~~~)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm;
  let prose = 0;
  const inline = (from, to) => {
    for (const match of text.slice(from, to).matchAll(/(`+)([^`]+?)\1/g)) snippets.push({ snippet: { text: match[2].trim(), inline: true }, index: from + match.index });
  };
  for (const block of text.matchAll(fence)) {
    inline(prose, block.index);
    let offset = block.index + block[0].indexOf('\n') + 1;
    let pending = '';
    let pendingAt = offset;
    for (const line of block[2].split('\n')) {
      if (pending === '') pendingAt = offset;
      if (line.endsWith('\\')) pending += `${line.slice(0, -1)} `;
      else {
        snippets.push({ snippet: { text: pending + line, inline: false }, index: pendingAt });
        pending = '';
      }
      offset += line.length + 1;
    }
    prose = block.index + block[0].length;
  }
  inline(prose, text.length);
  return snippets;
}

/** The flags given to a command in a snippet: after its name, up to the end of that shell command or a comment. */
function flagsCalledWith(snippet, calls) {
  const found = [];
  for (const call of calls) {
    for (const match of snippet.text.matchAll(call)) {
      const from = match.index + match[0].length;
      const rest = snippet.text.slice(from);
      const end = rest.search(/\s(?:&&|\|\||[|;&#])(?:\s|$)|\s&$/);
      const args = end === -1 ? rest : rest.slice(0, end);
      for (const flag of args.matchAll(/(?:^|\s)(--[a-z][a-z0-9-]*)/g)) found.push(flag[1]);
    }
  }
  return found;
}

/** Every link and image target of the page that is not a URL, outside code. */
function relativeLinks(text) {
  const outsideCode = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, (block) => block.replace(/[^\n]/g, ' ')).replace(/`[^`\n]+`/g, (span) => ' '.repeat(span.length));
  return [...outsideCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => ({ target: match[1], index: match.index }))
    .filter(({ target }) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.includes('{{'));
}

function linkProblem(docsRoot, page, target) {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? join(docsRoot, page) : resolve(dirname(join(docsRoot, page)), decodeURIComponent(path));
  if (!existsSync(file)) return `link to ${target}: no such file`;
  if (anchor === undefined || anchor === '' || !file.endsWith('.md')) return undefined;
  if (!headingAnchors(readFileSync(file, 'utf8')).has(anchor)) return `link to ${target}: ${path || page} has no heading with the anchor #${anchor}`;
  return undefined;
}

/** The anchors a Markdown renderer gives a page's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
export function headingAnchors(text) {
  const anchors = new Set();
  const seen = new Map();
  const outsideCode = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  for (const match of outsideCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const words = match[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*]/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(words) ?? 0;
    seen.set(words, count + 1);
    anchors.add(count === 0 ? words : `${words}-${count}`);
  }
  return anchors;
}

/** What the packages ask for: engines, the Node-RED range, the Companion module's base, the plugin's manifest. */
function requiredVersions(root) {
  const json = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
  const packageFiles = ['package.json', ...['packages', 'apps', 'tools'].flatMap((folder) => (existsSync(join(root, folder)) ? readdirSync(join(root, folder)).map((name) => `${folder}/${name}/package.json`) : []))];
  const nodeMinimums = new Set(
    packageFiles
      .filter((path) => existsSync(join(root, path)))
      .map((path) => /^>=\s*([\d.]+)/.exec(json(path).engines?.node ?? '')?.[1])
      .filter((version) => version !== undefined),
  );
  const nodeRedRange = json('packages/node-red/package.json')['node-red'].version;
  const [, nodeRedMin = '', nodeRedBelow = ''] = /^>=\s*([\d.]+)\s*<\s*(\d+)/.exec(nodeRedRange) ?? [];
  const base = /(\d+)\.(\d+)/.exec(json('apps/companion/package.json').dependencies['@companion-module/base']) ?? [];
  const streamDeck = json('apps/streamdeck/com.stagelink.mediaserver.sdPlugin/manifest.json').Software.MinimumVersion;
  return {
    node: [...nodeMinimums],
    nodeRed: { min: shortest(nodeRedMin), below: Number(nodeRedBelow), range: nodeRedRange },
    companion: { min: COMPANION_FOR_BASE[base[1]], base: `${base[1]}.${base[2]}` },
    streamDeck,
  };
}

/** 4.1.0 → 4.1, 7.0 → 7.0 (a major.minor is kept whole). */
function shortest(version) {
  const parts = version.split('.');
  while (parts.length > 2 && parts.at(-1) === '0') parts.pop();
  return parts.join('.');
}

const AT_LEAST = '(?:\\+| or later| or newer| and later)';

function versionProblems(text, versions) {
  const problems = [];
  for (const match of text.matchAll(new RegExp(`\\bNode(?:\\.js)? (\\d+(?:\\.\\d+){0,2})${AT_LEAST}`, 'g'))) {
    const stated = match[1].split('.');
    // 20.18 for >=20.18.1 names the same release line; 20 alone does not.
    const fits = versions.node.some((minimum) => {
      const parts = minimum.split('.');
      return stated.join('.') === minimum || (stated.length >= 2 && stated.every((part, index) => parts[index] === part));
    });
    if (!fits) problems.push({ index: match.index, problem: `${match[0]}: the packages' engines ask for Node.js ${versions.node.join(' or ')}` });
  }
  for (const match of text.matchAll(new RegExp(`\\bNode-RED (\\d+(?:\\.\\d+)*)(?:${AT_LEAST}| or (\\d+))`, 'g'))) {
    if (shortest(match[1]) !== versions.nodeRed.min) problems.push({ index: match.index, problem: `${match[0]}: the nodes ask for Node-RED ${versions.nodeRed.range} (packages/node-red/package.json)` });
    if (match[2] && Number(match[2]) >= versions.nodeRed.below) problems.push({ index: match.index, problem: `${match[0]}: the nodes ask for Node-RED ${versions.nodeRed.range}` });
  }
  for (const match of text.matchAll(new RegExp(`\\bCompanion (\\d+(?:\\.\\d+)*)${AT_LEAST}`, 'g'))) {
    if (match[1] !== versions.companion.min) {
      problems.push({ index: match.index, problem: `${match[0]}: the module is on @companion-module/base ${versions.companion.base}, which Companion ${versions.companion.min ?? '(unknown: add it to COMPANION_FOR_BASE)'} and later host` });
    }
  }
  for (const match of text.matchAll(/@companion-module\/base`? (\d+\.\d+)/g)) {
    if (match[1] !== versions.companion.base) problems.push({ index: match.index, problem: `${match[0]}: the module depends on @companion-module/base ${versions.companion.base}` });
  }
  for (const match of text.matchAll(new RegExp(`\\bStream Deck (\\d+(?:\\.\\d+)*)${AT_LEAST}`, 'g'))) {
    if (match[1] !== versions.streamDeck) problems.push({ index: match.index, problem: `${match[0]}: the plugin's manifest asks for Stream Deck ${versions.streamDeck}` });
  }
  return problems;
}

/** The Markdown pages: what git tracks or would (ignored build output left out), else every file; changelogs and pending changesets are history, not instructions. */
function markdownFiles(root) {
  return filesOf(root, (path) => path.endsWith('.md') && !/(^|\/)CHANGELOG\.md$/.test(path) && !path.startsWith('.changeset/') && !/(^|\/)fixtures\//.test(path));
}

/** Every STAGELINK_* name in the code (not in Markdown). */
function stagelinkNamesIn(root) {
  const names = new Set();
  const code = filesOf(root, (path) => /\.(?:[cm]?[jt]s|sh|json)$/.test(path) || path === '.ci/run');
  for (const path of code) {
    for (const match of readFileSync(join(root, path), 'utf8').matchAll(/\bSTAGELINK_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(match[0]);
  }
  return names;
}

const NEVER = new Set(['node_modules', 'dist', '.git', '.turbo', 'coverage']);

/** Paths (with `/`) under `root` that `keep` accepts: git's list of tracked and unignored files in a checkout, else a walk. */
function filesOf(root, keep) {
  let paths;
  try {
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    paths = resolve(top) === resolve(root) ? listed.split('\0').filter((path) => path !== '' && existsSync(join(root, path))) : undefined;
  } catch {
    paths = undefined;
  }
  paths ??= walk(root, '');
  return paths.filter((path) => !path.split('/').some((part) => NEVER.has(part)) && keep(path));
}

function walk(root, folder) {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) return NEVER.has(entry.name) ? [] : walk(root, path);
    return entry.isFile() ? [path] : [];
  });
}

/** The repository this file is in. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
