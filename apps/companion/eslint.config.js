// The workspace's lint rules, plus the package's Node scripts; the packed module and Node 22 are build output.
import root from '../../eslint.config.js';

export default [
  ...root,
  { ignores: ['pkg/**', '.runtime/**'] },
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { console: 'readonly' } } },
];
