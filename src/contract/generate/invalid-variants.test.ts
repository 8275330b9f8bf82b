import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../openapi/load-spec.js';
import { mutationsOf } from './invalid-variants.js';
import type { SchemaLike } from './json-schema.js';

const spec = await loadSpec();
const newPet = spec.document.components!.schemas!.NewPet as SchemaLike;
const valid = { name: 'Rex', categoryId: 1, status: 'available' };

describe('mutationsOf', () => {
  const mutations = mutationsOf(newPet);
  const byLabel = new Map(mutations.map((m) => [m.label, m.apply(valid)]));

  it('breaks each constraint of NewPet one at a time, as the document states them', () => {
    expect(byLabel.get('body.name: left out (it is required)')).toEqual({ categoryId: 1, status: 'available' });
    expect(byLabel.get('body.categoryId: left out (it is required)')).toEqual({ name: 'Rex', status: 'available' });
    expect(byLabel.get('body.name: true (a JSON boolean) where string is required')).toEqual({ ...valid, name: true });
    expect(byLabel.get('body.status: null (a JSON null) where string is required')).toEqual({ ...valid, status: null });
    expect(byLabel.get('body.status: "" is not in the enum [available, pending, sold]')).toEqual({
      ...valid,
      status: '',
    });
    expect(byLabel.get('body.status: "AVAILABLE" is not in the enum [available, pending, sold]')).toEqual({
      ...valid,
      status: 'AVAILABLE',
    });
    expect(byLabel.get('body.categoryId: 1.5 (a JSON number) where integer is required')).toEqual({
      ...valid,
      categoryId: 1.5,
    });
    expect(byLabel.get('body.categoryId: "7" is a string, not an integer')).toEqual({ ...valid, categoryId: '7' });
    expect(byLabel.get('body.categoryId: 9223372036854775808 is outside int64 range')).toEqual({
      ...valid,
      categoryId: 2n ** 63n,
    });
    expect(byLabel.get('body.categoryId: -9223372036854775809 is outside int64 range')).toEqual({
      ...valid,
      categoryId: -(2n ** 63n) - 1n,
    });
  });

  it('gives the whole body every JSON type but an object', () => {
    for (const [label, body] of [
      ['body: "x" (a JSON string) where object is required', 'x'],
      ['body: 7 (a JSON integer) where object is required', 7],
      ['body: null (a JSON null) where object is required', null],
      ['body: [] (a JSON array) where object is required', []],
      ['body: true (a JSON boolean) where object is required', true],
    ] as const) {
      expect(byLabel.get(label), label).toEqual(body);
    }
  });

  it("never produces a valid body: each mutation fails the document's own validator", () => {
    const validate = spec.operationById.get('createPet')!.body!.validate!;
    expect(validate(valid)).toBe(true);
    for (const mutation of mutations) expect(validate(mutation.apply(valid)), mutation.label).toBe(false);
  });

  it('breaks a bounded integer parameter below, above and far beyond its range', () => {
    const limit = spec.operationById.get('listPets')!.parameters.find((p) => p.name === 'limit')!.validate
      .schema as SchemaLike;
    const values = mutationsOf(limit, 'query.limit').map((m) => m.apply(undefined));
    expect(values).toEqual(expect.arrayContaining([0, 101, 10n ** 20n - 1n, -(10n ** 20n - 1n), 'x', 1.5, true, null]));
  });
});
