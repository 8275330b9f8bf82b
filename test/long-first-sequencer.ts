import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took longest in a measured `npm test` (2026-11-26, one file at a time at load 9; the figures less what
 * has since moved to the long suite or gone): contract-differential 79 s, contract-wire-battery 41 s,
 * contract-generated 37 s, contract-keys 32 s, contract-stacks 30 s, package 22 s. Each is one worker's work from
 * start to end: whole contract runs side by side in one process, or an npm pack and install.
 */
const LONGEST = [
  'test/contract-differential.test.ts',
  'test/contract-wire-battery.test.ts',
  'test/contract-generated.test.ts',
  'test/contract-keys.test.ts',
  'test/contract-stacks.test.ts',
  'test/package.test.ts',
];

/**
 * vitest's order, with the longest files first. Without durations from an earlier run (a fresh clone, as CI has)
 * vitest starts the largest files first, and these small files that make many whole contract runs came last: one
 * worker then ran on alone for a minute while the other had nothing left. Started first, they overlap the rest.
 * A file missing from the list only runs in vitest's own order.
 */
export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? LONGEST.length : at;
    };
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
