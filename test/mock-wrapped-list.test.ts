import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createPetstoreFetch } from '../src/fetch/index.js';
import { loadSpec } from '../src/openapi/load-spec.js';

// Issue 53: Train Travel's get-bookings answers {data: Booking[], links} (allOf[Wrapper-Collection, {data}, {links}]).
// The mock lists its bookings in `data`, the other members made from the schema, and every answer validates.
const document = fileURLToPath(
  new URL('../node_modules/@readme/oas-examples/3.1/yaml/train-travel.yaml', import.meta.url),
);
const KEY = 'wrapped-list-key';
const BASE = 'https://train.example.com/v1';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

describe('a list wrapped in an object, served by the mock', () => {
  it('Train Travel: the seeds of the example, a booking made, listed in data; each answer valid', async () => {
    const spec = await loadSpec(document);
    const listed = spec.operations.find((o) => o.id === 'get-bookings')!.responses.get('200')!.validate!;
    const petstoreFetch = createPetstoreFetch({ spec: document, apiKeys: [KEY], baseUrl: BASE });
    const first = await petstoreFetch(`${BASE}/bookings`, { headers });
    expect(first.status).toBe(200);
    const before = (await first.json()) as { data: { id: string }[]; links: unknown };
    expect(listed(before), JSON.stringify(listed.errors)).toBe(true);
    // The document's list example seeds the collection: its two bookings, read through `data`.
    expect(before.data.map((b) => b.id)).toEqual([
      'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e',
      'b2e783e1-c824-4d63-b37a-d8d698862f1d',
    ]);
    expect(Object.keys(before).sort()).toEqual(['data', 'links']);
    const made = await petstoreFetch(`${BASE}/bookings`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ trip_id: 'ea399ba1-6d95-433f-92d1-83f67b775594', passenger_name: 'Ada', has_dog: true }),
    });
    expect(made.status).toBe(201);
    const booking = (await made.json()) as { id: string };
    const after = (await (await petstoreFetch(`${BASE}/bookings`, { headers })).json()) as { data: { id: string }[] };
    expect(listed(after), JSON.stringify(listed.errors)).toBe(true);
    expect(after.data.map((b) => b.id)).toContain(booking.id);
    expect(after.data).toHaveLength(3);
  });
});
