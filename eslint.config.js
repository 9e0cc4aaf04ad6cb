// One lint setup for every package; CI runs it through the test command.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'proto/src/gen/**', '.tools/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    // Issue 24: a service file over 250 lines mixes jobs; split it by use case. Generated code is exempt.
    files: ['services/*/src/**/*.{ts,tsx}'],
    ignores: ['services/web/src/api/schema.d.ts'],
    rules: { 'max-lines': ['error', { max: 250 }] },
  },
  {
    // Still over 250, outside the issue 24 change that added the limit (other work is under way
    // there): a warning until each is split, then it leaves this list.
    files: [
      'services/mcp/src/app/json-exchange.ts',
      'services/sandbox/src/domain/people.ts',
      'services/sandbox/src/domain/search.ts',
      'services/sandbox/src/domain/universe.ts',
      'services/sandbox/src/domain/vocabulary.ts',
      'services/sandbox/src/http/vendor-kit.ts',
    ],
    rules: { 'max-lines': ['warn', { max: 250 }] },
  },
  {
    // Tests read loosely typed JSON responses.
    files: ['test/**/*.ts', 'services/*/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
