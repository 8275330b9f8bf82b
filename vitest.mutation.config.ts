import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` runs against each mutant of src/contract/transport and src/contract/judge: the unit
 * tests beside that code, which take milliseconds. The end-to-end suites (the wire battery, the differential test)
 * take seconds to minutes each and would make a run of hours; they are not in the selection.
 */
export default defineConfig({
  test: {
    include: ['src/contract/transport/**/*.test.ts', 'src/contract/judge/**/*.test.ts'],
    // One worker whose dependencies (undici, AJV, the OpenAPI parser) stay loaded between test files and between
    // mutants: importing them afresh for every file of every mutant was most of a run (the files of one mutant in
    // 2.4 s instead of 6.5 s of imports). The project's own modules and the test files are evaluated again each
    // run, so module-level mutants are still applied (the check-ids.ts descriptions, all module-level, are killed).
    isolate: false,
  },
});
