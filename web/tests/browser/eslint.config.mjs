// Lints the web app's scripts (web/assets/js) and these tests: ESLint's recommended rules, which
// catch a name used but never defined (the browser tests would only meet it at run time, if a
// test reaches that line) and names defined but never used. scripts/browser-tests.sh runs it.
import js from '@eslint/js';
import globals from 'globals';

export default [
  // Paths are from web/, where scripts/browser-tests.sh runs it with `--config` (this
  // directory holds the npm packages).
  { ...js.configs.recommended, files: ['assets/js/**/*.js', 'tests/browser/*.mjs'] },
  {
    files: ['assets/js/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    files: ['tests/browser/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
];
