import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` runs against each mutant of src/contract/transport and src/contract/judge: the unit
 * tests beside that code, which take milliseconds. The end-to-end suites (the wire battery, the differential test)
 * take seconds to minutes each and would make a run of hours; they are not in the selection.
 */
export default defineConfig({
  test: {
    include: [
      'src/contract/transport/**/*.test.ts',
      'src/contract/judge/**/*.test.ts',
      'src/openapi/judge-answer-basics.test.ts',
      'src/contract/stateful/**/*.test.ts',
      // The resource oracles are judged against targets on loopback (a correct one and one per planted fault, the
      // mock on v1.1): a second or so a test, the fastest way their verdicts can be seen.
      'test/contract-resource-oracles.test.ts',
      'test/contract-resource-oracles-words.test.ts',
      'test/contract-resource-oracles-variants.test.ts',
      'test/contract-collection-oracles.test.ts',
      'test/contract-collection-oracles-words.test.ts',
      'test/contract-oracle-listing.test.ts',
      'test/contract-oracle-requests.test.ts',
      'test/contract-oracle-create-fails.test.ts',
      'test/contract-collection-oracles-variants.test.ts',
    ],
    // Dependencies (undici, AJV, the OpenAPI parser) stay loaded between test files and between mutants: importing
    // them afresh for every file of every mutant was most of a run (all these files: 6.5 s of imports isolated,
    // 2.3 s not). The project's modules and the test files are still evaluated afresh each run: a module-level
    // mutant (shown-credentials.ts's KEY_VARIABLE emptied) is killed under it.
    isolate: false,
    // The oracle tests run whole cases against a target (the order-ids-repeat fault waits a second a create).
    testTimeout: 20_000,
  },
});
