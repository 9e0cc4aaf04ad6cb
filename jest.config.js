/** One jest setup for every package; the test command selects suites by path. */

// ESM-only packages that jest's CommonJS runtime cannot require, and a package that imports one
// dynamically (@fastify/cookie loads cookie with import()); ts-jest transpiles them.
const esmOnly = ['cookie', '@fastify\\+cookie', 'content-disposition'];

// The test command's e2e and spec stages start one RDE per jest worker that files share (decision 0081).
const sharedRde =
  process.env.RDE_E2E_SHARED === '1'
    ? { globalSetup: '<rootDir>/test/e2e/shared-setup.ts', globalTeardown: '<rootDir>/test/e2e/shared-teardown.ts' }
    : {};

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  transformIgnorePatterns: [`/node_modules/\\.pnpm/(?!(${esmOnly.join('|')})@)`],
  testMatch: ['**/?(*.)test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // A test that builds a whole gateway (every route and its OpenAPI) takes seconds on a loaded CI
  // machine; jest's 5 s default then fails it at random. Suites with longer waits set their own.
  testTimeout: 20_000,
  ...sharedRde,
  reporters: ['default', '<rootDir>/test/tally-reporter.js'],
};
