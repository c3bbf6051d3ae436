// The repository's eslint config; the release tool and its tests are plain Node.js ES modules.
import root from '../../eslint.config.js';

const node = Object.fromEntries(['process', 'console', 'fetch', 'URL', 'Blob', 'FormData', 'setTimeout', 'clearTimeout'].map((name) => [name, 'readonly']));

export default [...root, { files: ['**/*.mjs'], languageOptions: { globals: node } }];
