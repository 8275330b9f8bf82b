import { describe, expect, it } from 'vitest';
import { moduleLiteral } from './module-literal.js';

/** The value a module exporting `moduleLiteral(value)` holds, as a page would get it. */
async function evaluated(value: unknown): Promise<unknown> {
  const source = `export const value = ${moduleLiteral(value)};`;
  const module = (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as { value: unknown };
  return module.value;
}

describe('moduleLiteral', () => {
  it('keeps every digit of an int64 beyond 2^53 as a bigint', async () => {
    const seeds = { pets: [{ id: 9007199254740993n, name: 'Big', categoryId: -9223372036854775808n }] };
    expect(moduleLiteral(seeds)).toBe(
      '{"pets":[{"id":9007199254740993n,"name":"Big","categoryId":-9223372036854775808n}]}',
    );
    expect(await evaluated(seeds)).toEqual(seeds);
  });

  it('writes a key named __proto__ as a property, not as the prototype', async () => {
    const value = JSON.parse('{"properties":{"__proto__":{"type":"string"}}}') as unknown;
    const back = (await evaluated(value)) as { properties: object };
    expect(Object.keys(back.properties)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(back.properties)).toBe(Object.prototype);
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
  });

  it('writes what JSON writes for everything else', async () => {
    const value = {
      s: 'a "quoted"\nline\u2028',
      n: -0.5,
      e: 1e21,
      t: true,
      z: null,
      list: [1, 'x', [], {}],
      skip: undefined,
    };
    expect(moduleLiteral(value)).toBe(JSON.stringify(value));
    expect(await evaluated(value)).toEqual(JSON.parse(JSON.stringify(value)));
  });
});
