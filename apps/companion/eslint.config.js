// Companion's own lint rules for modules (@companion-module/tools' config: eslint's recommended, eslint-plugin-n,
// typescript-eslint's type-checked rules), then the workspace's rules, plus the package's Node scripts; the packed
// module and Node 22 are build output.
import { generateEslintConfig } from '@companion-module/tools/eslint/config.mjs';
import root from '../../eslint.config.js';

const companion = await generateEslintConfig({ enableTypescript: true });

export default [
  ...companion,
  ...root,
  // The workspace's type-aware parsing (its project service) stands in for the config's `project: true`.
  { languageOptions: { parserOptions: { project: false } } },
  // The workspace formats with its own settings (single quotes, long lines), not prettier's defaults.
  { rules: { 'prettier/prettier': 'off' } },
  // TypeScript resolves the `.js` specifiers of `.ts` sources (and refuses a missing one); eslint-plugin-n does not.
  { files: ['**/*.ts'], rules: { 'n/no-missing-import': 'off' } },
  // The benchmark probes and the Node 22 runner are processes whose exit is their answer.
  { files: ['scripts/**/*.mjs', 'test/harness/*-probe.ts'], rules: { 'n/no-process-exit': 'off' } },
  { ignores: ['pkg/**', '.runtime/**'] },
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { console: 'readonly' } } },
];
