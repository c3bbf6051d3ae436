// The repository's eslint config, plus what this package needs: the smoke test's runtimes are not ours, the
// runner scripts are plain Node.js ES modules, and resources/ holds browser scripts for the Node-RED editor.
import root from '../../eslint.config.js';

const node = Object.fromEntries(
  ['process', 'console', 'fetch', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => [name, 'readonly']),
);

export default [
  { ignores: ['.smoke/**'] },
  ...root,
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: node } },
  { files: ['resources/**/*.js'], languageOptions: { sourceType: 'script', globals: { window: 'readonly', $: 'readonly', RED: 'readonly' } } },
];
