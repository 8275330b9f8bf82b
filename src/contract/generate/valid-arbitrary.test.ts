import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../openapi/load-spec.js';
import { fc, loadFastCheck } from './fast-check.js';
import { atMostCodePoints, validArbitrary } from './valid-arbitrary.js';
import type { SchemaLike } from './json-schema.js';
import { seedFor } from './budget.js';

const spec = await loadSpec();
await loadFastCheck();
const newPet = spec.document.components!.schemas!.NewPet as SchemaLike;

describe('validArbitrary', () => {
  const samples = fc.sample(validArbitrary(newPet), { seed: 42, numRuns: 2000 }) as Record<string, unknown>[];

  it('generates only bodies the document accepts', () => {
    const validate = spec.operationById.get('createPet')!.body!.validate!;
    for (const body of samples)
      expect(
        validate(body),
        JSON.stringify(body, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
      ).toBe(true);
  });

  it('covers the whole int64 range, its edges, every status and none, and names beyond ASCII', () => {
    const ids = samples.map((b) => b.categoryId);
    expect(ids).toContain(2n ** 63n - 1n);
    expect(ids).toContain(-(2n ** 63n));
    expect(ids).toContain(0);
    expect(ids).toContain(2 ** 31);
    expect(ids.some((id) => typeof id === 'bigint' && id > 0n && id < 2n ** 62n)).toBe(true);
    // Safe integers stay numbers, so that equal values compare equal.
    expect(
      ids.every((id) =>
        typeof id === 'number'
          ? Number.isSafeInteger(id)
          : typeof id === 'bigint' && (id > 2n ** 53n - 1n || id < -(2n ** 53n - 1n)),
      ),
    ).toBe(true);
    expect(new Set(samples.map((b) => b.status))).toEqual(new Set(['available', 'pending', 'sold', undefined]));
    const names = samples.map((b) => b.name as string);
    expect(names.every((name) => name.length > 0)).toBe(true);
    expect(names.some((name) => /[^\x00-\x7f]/.test(name))).toBe(true);
    expect(names.some((name) => /[\x00-\x1f]/.test(name))).toBe(true);
    expect(names.some((name) => [...name].length > 100)).toBe(true);
  });
});

describe('a string with maxLength', () => {
  // As v1.1's `tag`: JSON Schema counts code points, fast-check's grapheme unit counts `A` + U+0300 as one.
  const tag = { type: 'string', minLength: 2, maxLength: 8 } as SchemaLike;
  const samples = fc.sample(validArbitrary(tag), { seed: 7, numRuns: 3000 }) as string[];

  it('never passes maxLength in code points, nor falls under minLength, and still has several code points a grapheme', () => {
    const lengths = samples.map((text) => [...text].length);
    expect(Math.max(...lengths)).toBe(8);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(2);
    expect(samples.some((text) => /\p{M}/u.test(text))).toBe(true);
  });

  it('cuts by code points, keeping surrogate pairs whole', () => {
    expect(atMostCodePoints('ab\u0300c', 3)).toBe('ab\u0300');
    expect(atMostCodePoints('😀😀😀', 2)).toBe('😀😀');
    expect(atMostCodePoints('abc', 3)).toBe('abc');
  });
});

describe('seedFor', () => {
  it('is the same for the same run seed and property, and differs between properties', () => {
    expect(seedFor(7, 'stateful/pets')).toBe(seedFor(7, 'stateful/pets'));
    expect(seedFor(7, 'stateful/pets')).not.toBe(seedFor(7, 'generated.round-trip/createPet'));
    expect(seedFor(7, 'stateful/pets')).not.toBe(seedFor(8, 'stateful/pets'));
  });
});
