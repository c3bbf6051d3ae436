// The workspace's lint rules, plus the property inspectors: plain scripts that run in the Stream Deck app's
// browser view, where window, document and WebSocket are globals.
import root from '../../eslint.config.js';

export default [
  ...root,
  { ignores: ['release/**'] },
  {
    files: ['*.sdPlugin/ui/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        WebSocket: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
];
