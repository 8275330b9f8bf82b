import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The contract suite under vitest's own CLI, for those who want its reporters. From a clone:
//   CONTRACT_BASE_URL=http://127.0.0.1:4010/v1 PETSTORE_API_KEY=petstore-dev-key npx vitest run -c vitest.contract.config.ts
// From a project that installed petstore-kit:
//   CONTRACT_BASE_URL=… PETSTORE_API_KEY=… npx vitest run -c node_modules/petstore-kit/vitest.contract.config.ts
// `petstore-kit contract` runs the same files with the same settings from code (src/contract/run/run-contract-suite.ts).
export default defineConfig({
  // The package's own directory, wherever it is installed, not the directory vitest was started from.
  root: fileURLToPath(new URL('.', import.meta.url)),
  // vitest caches results under the root; an installed package may be read-only.
  cacheDir: join(tmpdir(), 'petstore-kit-vitest'),
  test: {
    include: ['contract-tests/**/*.test.ts'],
    // vitest's default exclude (**/node_modules/**) would hide the suite of an installed package.
    exclude: [],
    testTimeout: 300_000,
    fileParallelism: false,
  },
});
