import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` runs against each mutant of src/contract/transport and src/contract/judge: the unit
 * tests beside that code, which take milliseconds. The end-to-end suites (the wire battery, the differential test)
 * take seconds to minutes each and would make a run of hours; they are not in the selection.
 */
export default defineConfig({
  test: {
    include: ['src/contract/transport/**/*.test.ts', 'src/contract/judge/**/*.test.ts'],
  },
});
