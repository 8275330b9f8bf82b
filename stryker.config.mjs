// @ts-check
/**
 * Mutation testing of the runner's transport, judge and resource oracles (`npm run mutation`; not part of `npm test` or CI): one
 * mutant at a time (the machine is shared), the unit tests of vitest.mutation.config.ts against each.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'src/contract/transport/**/*.ts',
    'src/contract/judge/**/*.ts',
    'src/openapi/judge-answer-basics.ts',
    'src/contract/stateful/resource-oracles.ts',
    'src/contract/stateful/collection-oracles.ts',
    'src/contract/stateful/gone-from-list.ts',
    '!**/*.test.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  reporters: ['clear-text', 'progress'],
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
