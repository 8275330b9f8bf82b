import { describe, expect, it } from 'vitest';
import { parameterTexts, parameterValue } from './parameter-text.js';
import { loadSpec } from './load-spec.js';
import { parameterTextValid } from '../contract/generate/broken-parameters.js';

/** A document of one operation whose parameters are arrays and scalars in each style's default and not. */
async function operation() {
  const spec = await loadSpec({
    openapi: '3.0.3',
    info: { title: 'styles', version: '1' },
    paths: {
      '/things/{ids}': {
        get: {
          operationId: 'listThings',
          parameters: [
            { name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'integer' } } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            { name: 'sizes', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
          ],
          responses: { '200': { description: 'things' } },
        },
      },
    },
  } as never);
  const [listThings] = spec.operations;
  const named = (name: string) => listThings!.parameters.find((p) => p.name === name)!;
  return { ids: named('ids'), tags: named('tags'), sizes: named('sizes'), limit: named('limit') };
}

describe('parameterValue: a parameter read as its style says (OpenAPI 3.0.3 §4.7.12.1)', () => {
  it('reads a query array (form, explode) one value per occurrence, with no JSON types', async () => {
    const { tags } = await operation();
    expect(parameterValue(tags, ['a', 'b'])).toEqual({ value: ['a', 'b'] });
    expect(parameterValue(tags, ['true'])).toEqual({ value: ['true'] });
    expect(parameterValue(tags, ['a,b'])).toEqual({ value: ['a,b'] });
  });

  it('reads form without explode and simple (a path) as comma-separated, each item by the items type', async () => {
    const { sizes, ids } = await operation();
    expect(parameterValue(sizes, ['1,2,3'])).toEqual({ value: [1, 2, 3] });
    expect(parameterValue(ids, ['7,8'])).toEqual({ value: [7, 8] });
    expect(parameterValue(ids, ['7,x'])).toEqual({ message: 'path.ids must be an integer (got "x")' });
  });

  it('reads a scalar once, strictly', async () => {
    const { limit } = await operation();
    expect(parameterValue(limit, ['5'])).toEqual({ value: 5 });
    expect(parameterValue(limit, ['007'])).toEqual({ message: 'query.limit must be an integer (got "007")' });
    expect(parameterValue(limit, ['1', '2'])).toEqual({ message: 'query.limit must be given once (got 2 values)' });
  });

  it("is the runner's reading too: `tags=true` breaks nothing, `sizes=x` and `limit=0` do", async () => {
    const { tags, sizes, limit } = await operation();
    expect(parameterTextValid(tags, 'true')).toBe(true);
    expect(parameterTextValid(sizes, 'x')).toBe(false);
    expect(parameterTextValid(sizes, '4,5')).toBe(true);
    expect(parameterTextValid(limit, '0')).toBe(false);
  });

  it('parameterTexts writes what parameterValue reads back: an exploded array once per item, else comma-joined', async () => {
    const { tags, sizes, ids, limit } = await operation();
    expect(parameterTexts(tags, ['a', 'b'])).toEqual(['a', 'b']);
    expect(parameterTexts(sizes, [1, 2, 3])).toBe('1,2,3');
    expect(parameterTexts(limit, 2n ** 60n)).toBe('1152921504606846976');
    for (const [parameter, value] of [
      [tags, ['a', 'b c']],
      [sizes, [1, 2]],
      [ids, [7]],
      [limit, 5],
    ] as const) {
      const texts = parameterTexts(parameter, value);
      expect(parameterValue(parameter, typeof texts === 'string' ? [texts] : texts)).toEqual({ value });
    }
  });
});
