// The official Stream Deck build (the shape `streamdeck create` generates), plus two fixes: undici's lazy `node:sqlite` require stays out of the bundle, and the SDK's socket to
// the Stream Deck app is made observable so the plugin can exit when the app goes away. The development build
// (`pnpm build`) is not minified and has a source map, so that a stack trace in the plugin's log points at
// readable code. The release build (`pnpm build:release`, which `pnpm pack:plugin` runs) is minified and has no
// source map: the packed plugin stays small, and class and function names are kept so its log still says
// which part of the plugin a stack trace went through.
import { PLAYMODE_LABELS, PLAYMODES, TRANSPORT_COMMAND_LABELS, TRANSPORT_COMMANDS } from '@stagelink/core';
import commonjs from '@rollup/plugin-commonjs';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import url from 'node:url';

const sdPlugin = 'com.stagelink.mediaserver.sdPlugin';
const here = path.dirname(url.fileURLToPath(import.meta.url));
const appSocket = path.join(here, 'src', 'app-socket.ts');
/** Set by `pnpm build:release` (`rollup -c --environment STAGELINK_RELEASE`). */
const release = process.env.STAGELINK_RELEASE !== undefined;

/**
 * The SDK opens its socket to the app with `new WebSocket(...)` from `ws` and never listens for `close`.
 * Inside the SDK only, `ws` resolves to src/app-socket.ts, a WebSocket that reports when that socket closes.
 * Everything else (core's live-update sockets included) gets the real `ws`.
 * @returns {import('rollup').Plugin}
 */
function observeAppSocket() {
  return {
    name: 'observe-app-socket',
    resolveId(source, importer) {
      if (source === 'ws' && importer && /[\\/]@elgato[\\/]streamdeck[\\/]/.test(importer)) return appSocket;
      return null;
    },
  };
}

/**
 * The transport inspector is a plain page that cannot import core: its command list, the fields each command
 * takes and the playmodes are written from core at build time into bin/transport-commands.js, which it loads.
 * @returns {import('rollup').Plugin}
 */
function transportCommandTable() {
  const table = {
    commands: Object.entries(TRANSPORT_COMMANDS).map(([value, { required, optional }]) => ({
      value,
      label: TRANSPORT_COMMAND_LABELS[value],
      fields: [...required, ...optional],
    })),
    playmodes: PLAYMODES.map((value) => ({ value: value === 'NotSet' ? '' : value, label: PLAYMODE_LABELS[value] })),
  };
  return {
    name: 'transport-command-table',
    generateBundle() {
      const source = `// Written at build time from @stagelink/core's transport commands and playmodes.\nwindow.STAGELINK_TRANSPORT = ${JSON.stringify(table)};\n`;
      this.emitFile({ fileName: 'transport-commands.js', source, type: 'asset' });
    },
  };
}

/**
 * The settings pages share their head, the media-server rows and the connection line: src/inspector/pages/page.html
 * holds them once, and each page's own file there (its <title> on the first line, then its rows) is written into
 * it as ui/<name>.html.
 * @returns {import('rollup').Plugin}
 */
function inspectorPages() {
  const sources = path.join(here, 'src', 'inspector', 'pages');
  const frame = path.join(sources, 'page.html');
  const pages = () => readdirSync(sources).filter((file) => file.endsWith('.html') && file !== 'page.html');
  return {
    name: 'inspector-pages',
    buildStart() {
      for (const file of [frame, ...pages().map((page) => path.join(sources, page))]) this.addWatchFile(file);
    },
    writeBundle() {
      const shared = readFileSync(frame, 'utf8');
      for (const page of pages()) {
        const [, title, rows] = /^<title>(.+)<\/title>\n([\s\S]*)$/.exec(readFileSync(path.join(sources, page), 'utf8')) ?? [];
        if (title === undefined || rows === undefined) throw new Error(`src/inspector/pages/${page} must start with its <title> line`);
        const html = shared.replace('{{title}}', () => title).replace('{{rows}}', () => rows);
        writeFileSync(path.join(here, sdPlugin, 'ui', page), html);
      }
    },
  };
}

/**
 * A source map left by an earlier development build would sit beside a release bundle it does not describe.
 * @returns {import('rollup').Plugin}
 */
function dropStaleSourceMap() {
  return {
    name: 'drop-stale-source-map',
    writeBundle(options) {
      if (options.file) rmSync(`${options.file}.map`, { force: true });
    },
  };
}

/** @type {import('rollup').RollupOptions} */
const config = {
  input: 'src/plugin.ts',
  output: {
    file: `${sdPlugin}/bin/plugin.js`,
    format: 'es',
    sourcemap: !release,
    sourcemapPathTransform: (relativeSourcePath, sourcemapPath) =>
      url.pathToFileURL(path.resolve(path.dirname(sourcemapPath), relativeSourcePath)).href,
  },
  onwarn(warning, warn) {
    // undici and ws have circular imports and optional native add-ons; both are harmless in Node.
    if (warning.code === 'CIRCULAR_DEPENDENCY') return;
    warn(warning);
  },
  plugins: [
    {
      name: 'watch-externals',
      buildStart() {
        this.addWatchFile(`${sdPlugin}/manifest.json`);
      },
    },
    observeAppSocket(),
    transportCommandTable(),
    inspectorPages(),
    typescript({ tsconfig: './tsconfig.build.json' }),
    nodeResolve({ browser: false, exportConditions: ['node'], preferBuiltins: true }),
    // undici 7 requires node:sqlite lazily; bundled, that becomes a top-level import that crashes Node 20.
    commonjs({ ignore: ['node:sqlite'] }),
    ...(release ? [terser({ keep_classnames: true, keep_fnames: true, format: { comments: false } }), dropStaleSourceMap()] : []),
    {
      name: 'emit-module-package-file',
      generateBundle() {
        // Without it Node reads bin/plugin.js as CommonJS and the plugin dies at launch.
        this.emitFile({ fileName: 'package.json', source: '{ "type": "module" }\n', type: 'asset' });
      },
    },
  ],
};

export default config;
