import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadSpec } from './load-spec.js';
import { listedItems, wrapperMaxItems } from './list-wrapper.js';

const trainTravel = fileURLToPath(
  new URL('../../node_modules/@readme/oas-examples/3.1/yaml/train-travel.yaml', import.meta.url),
);

describe('a list wrapped in an object, on a document nobody here wrote', () => {
  it('Train Travel: get-bookings lists bookings in `data`; get-trips and get-stations are no collection', async () => {
    const spec = await loadSpec(trainTravel);
    const bookings = spec.resources.collections.find((c) => c.name === 'bookings')!;
    expect(bookings.operations.list).toMatchObject({ operationId: 'get-bookings', wrapper: 'data' });
    expect(bookings.operations.create!.wrapper).toBeUndefined();
    const roles = Object.fromEntries(spec.resources.operations.map((o) => [o.operationId, o.role]));
    expect(roles).toMatchObject({ 'get-bookings': 'list', 'create-booking': 'create', 'get-trips': 'none' });
  });

  it('reads the items through the wrapper, and nothing else as a list', () => {
    expect(listedItems({ data: [{ id: 1 }], links: {} }, 'data')).toEqual([{ id: 1 }]);
    expect(listedItems([{ id: 1 }], undefined)).toEqual([{ id: 1 }]);
    expect(listedItems([{ id: 1 }], 'data')).toBeUndefined();
    expect(listedItems({ data: {} }, 'data')).toBeUndefined();
    expect(listedItems({ data: [] }, undefined)).toBeUndefined();
  });

  it("takes the wrapper's maxItems from any allOf part that declares it", () => {
    const schema = {
      allOf: [
        { properties: { data: { type: 'array', maxItems: 50 } } },
        { properties: { data: { allOf: [{ maxItems: 10 }] } } },
      ],
    };
    expect(wrapperMaxItems(schema, 'data')).toBe(10);
    expect(wrapperMaxItems({ properties: { data: { type: 'array' } } }, 'data')).toBeUndefined();
  });
});
