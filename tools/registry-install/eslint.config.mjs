// The repository's eslint config; this tool is plain Node.js ES modules.
import root from '../../eslint.config.js';

const node = Object.fromEntries(['process', 'console', 'Buffer', 'SharedArrayBuffer', 'Atomics', 'Int32Array'].map((name) => [name, 'readonly']));

export default [...root, { files: ['**/*.mjs'], languageOptions: { globals: node } }];
