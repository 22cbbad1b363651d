/** @type {import('jest').Config} */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      // Nest injects by the types decorators record; without metadata it silently injects undefined.
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2023',
    },
    module: { type: 'commonjs' },
  },
];

/*
 * Tests in three tiers (npm test runs them in this order; npm run test:fast the first two):
 * - unit: pure rules and libraries, no PostgreSQL, Redis, HTTP or browser;
 * - medium: services and invariants on a real PostgreSQL, no HTTP and no browser;
 * - e2e: what crosses the wire (the running service, its workers, the web interface) and the browser engine.
 */
const BROWSER_LIBS = ['<rootDir>/libs/capture/(capture|capture-shortcuts|determinism)\\.spec\\.ts$'];
const STATIC_CONTRACT = ['openapi-examples', 'problem-codes', 'route-access', 'event-schemas'];
const MEDIUM = [
  '<rootDir>/test/contract/workspace-scope.spec.ts',
  '<rootDir>/test/contract/raw-sql-scope.spec.ts',
  '<rootDir>/test/e2e/workspace-migration.spec.ts',
];

const tier = (displayName, options) => ({
  displayName,
  testEnvironment: 'node',
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  // Compiles each module once per jest worker instead of once per test file (test/setup/shared-scripts-runtime.js).
  runtime: '<rootDir>/test/setup/shared-scripts-runtime.js',
  ...options,
});
// Each file of these tiers works in its own copy of the run's database.
const withDatabase = { setupFilesAfterEnv: ['<rootDir>/test/setup/file-database.ts'] };

module.exports = {
  // The run's database and Redis prefix (made once per run, whichever tiers it runs).
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  // For a run of given paths; npm test sets each tier's own count (scripts/test.mjs: three for e2e).
  maxWorkers: 2,
  // A run-wide option: jest ignores it in a project. A guard against a hang, not a performance target (those are
  // benches): this machine's speed varies threefold from day to day, and a slow day must not fail a correct test.
  testTimeout: 120_000,
  projects: [
    tier('unit', {
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/test/unit/**/*.spec.ts',
        '<rootDir>/test/support/**/*.spec.ts',
        ...STATIC_CONTRACT.map((name) => `<rootDir>/test/contract/${name}.spec.ts`),
      ],
      testPathIgnorePatterns: ['/node_modules/', ...BROWSER_LIBS],
    }),
    // test/medium holds services' tests; MEDIUM, the files elsewhere that the e2e tier must leave to this one.
    tier('medium', { ...withDatabase, testMatch: [...MEDIUM, '<rootDir>/test/medium/**/*.spec.ts'] }),
    tier('e2e', {
      ...withDatabase,
      testMatch: [
        '<rootDir>/test/e2e/**/*.spec.ts',
        '<rootDir>/test/web/**/*.spec.ts',
        '<rootDir>/test/contract/**/*.spec.ts',
        '<rootDir>/libs/capture/*.spec.ts',
      ],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...MEDIUM,
        ...STATIC_CONTRACT.map((name) => `<rootDir>/test/contract/${name}\\.spec\\.ts$`),
        '<rootDir>/libs/capture/capture-budget\\.spec\\.ts$',
      ],
    }),
  ],
};
