import { defineConfig } from 'vitest/config';

// The contract suite under vitest's own CLI, for those who want its reporters:
//   CONTRACT_BASE_URL=http://127.0.0.1:4010/v1 PETSTORE_API_KEY=petstore-dev-key npx vitest run -c vitest.contract.config.ts
// `petstore-kit contract` runs the same files with the same settings from code (src/contract/run-contract-suite.ts).
export default defineConfig({
  test: {
    include: ['contract-tests/**/*.test.ts'],
    testTimeout: 300_000,
    fileParallelism: false,
  },
});
