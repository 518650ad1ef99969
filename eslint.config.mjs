// ESLint, as `npm run lint` (CI runs it before the tests). TypeScript gets eslint's and typescript-eslint's
// recommended rules, type-checked (each file with the tsconfig.json nearest to it); the scripts get eslint's.
// A rule configured below fights a deliberate pattern of this code base: each says which and why.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const UNUSED = { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' };

export default defineConfig(
  { ignores: ['**/out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', '.tmp/**', 'test/e2e/.artifacts/**', 'common/*.js', 'common/*.d.ts', 'site/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['common/**/*.ts', 'server/src/**/*.ts', 'client/src/**/*.ts', 'test/**/*.ts', 'playground/**/*.ts', 'browser/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore names a binding kept on purpose (`for (const _ of s) n++` counts code points).
      '@typescript-eslint/no-unused-vars': ['error', UNUSED],
      // `const self = this` is how a generator function (which cannot be an arrow) reaches its object.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
      // Python's exceptions used as control flow are thrown as plain objects, not Errors: no stack is
      // captured on paths that run once per value (a JSON scan's end, a patch's TypeError, a constant fold).
      '@typescript-eslint/only-throw-error': ['error', {
        // Raise (userdata/jsonpatch.ts), StopIteration (py/json.ts), ImpossibleSignal (jinja/optimizer.ts).
        allow: [{ from: 'file', name: ['Raise', 'StopIteration', 'ImpossibleSignal'] }],
      }],
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }],
      }],
    },
  },
  {
    // The playground page and the server's Web Worker run in a browser (their tsconfig.json have the DOM's types).
    files: ['playground/**/*.ts', 'browser/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The server's output is CommonJS: require() is its synchronous lazy load, so that start-up skips what a
    // run may not need (cli/main.ts's modes, Jinja, node:zlib, the schema data); import() would make every
    // caller async. Tests require built modules from out/ by path and re-require bundles to time their load.
    files: ['server/src/**/*.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The engine models Python and PyYAML, whose character classes name control characters
    // (\x00, \x1c-\x1f, \x85, \t\n\r in YAML's printable set): they are the point of these regexes.
    files: ['server/src/engine/**/*.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    // The YAML reader and scanner compare char codes (charCodeAt) with a const enum of char codes, as
    // PyYAML compares characters: the enum is the code's names for numbers, not a closed set of values.
    files: ['server/src/engine/yaml/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  {
    // Tests read what the CLI and the server print (JSON.parse, LSP payloads) as untyped documents,
    // as a user's script would, and assert on them: typing each parse would add casts that check nothing.
    // Their String() calls build regex subjects and failure messages: an '[object Object]' there fails
    // loudly, it cannot hide a bug.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Test doubles keep the async signatures of what they stand for (FeatureClient mirrors LspClient).
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', globals: globals.node },
    rules: { 'no-unused-vars': ['error', UNUSED] },
  },
  {
    // The bench drops its reference to one run's result before the next run (`keep = null; keep = fn()`), so
    // that the memory it measures is one run's: an assignment nothing reads, on purpose.
    files: ['scripts/bench/**/*.mjs'],
    rules: { 'no-useless-assignment': 'off' },
  },
  {
    files: ['scripts/**/*.js', 'scripts/**/*.cjs', 'bin/**/*.js', 'examples/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { 'no-unused-vars': ['error', UNUSED] },
  },
);
