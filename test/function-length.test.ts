import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script in plain JavaScript (also run by hand), without type declarations.
import { longFunctions as listLongFunctions, MAX_FUNCTION_LINES } from '../scripts/long-functions.mjs';

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}
const longFunctions = listLongFunctions as (limit?: number) => LongFunction[];

describe('the functions of src/', () => {
  it(`are at most ${MAX_FUNCTION_LINES as number} lines long (node scripts/long-functions.mjs lists those over)`, () => {
    const found = longFunctions().map(({ file, name, lines }) => `${file} ${name} (${lines} lines)`);
    expect(found).toEqual([]);
  });

  it('are measured whole, nested functions included', () => {
    const all = longFunctions(0);
    // A function with a nested one counts the nested lines too: the outer is the longer.
    const dispatch = all.find((f) => f.file === 'mock/dispatch.ts' && f.name === 'createDispatch');
    const inner = all.find((f) => f.file === 'mock/dispatch.ts' && f.name === 'dispatch');
    expect(dispatch && inner && dispatch.lines > inner.lines).toBe(true);
  });
});
