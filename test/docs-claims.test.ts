import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startApi, type Api } from './support/api.js';
import { section } from './support/docs.js';
import type { NewPet, Pet, StoredNewPet, StoredPet } from '../src/types.js';

// Claims of docs/mock.md and docs/decisions.md that drifted from the code once: each is read from the page and held
// against what the code does, so the page and the code change together.

describe('a reset, as docs/mock.md describes it', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('answers the status the durability promise names, with the body the admin table shows', async () => {
    await api.post('/pets', { name: 'Rex', categoryId: 1 });
    const reset = await api.request('POST', '//__admin/reset');
    const durable = /A change is answered \(a `201`, a reset's `(\d{3})`\)/.exec(
      section('- **Acknowledged means durable.**'),
    );
    expect(durable, 'docs/mock.md names the status a reset answers').not.toBeNull();
    expect(reset.status).toBe(Number(durable![1]));
    const row = /^\| `POST \/__admin\/reset` \| back to the fixtures: `(\{.*\})` \|$/m.exec(
      section('## Admin API', '##'),
    );
    expect(row, "docs/mock.md's admin table shows what a reset answers").not.toBeNull();
    // The table shows the package's own fixtures, as `startApi` serves them.
    expect(reset.body).toEqual(JSON.parse(row![1]!));
  });
});

describe('the exported pet types, as docs/decisions.md describes them', () => {
  const decisions = readFileSync(new URL('../docs/decisions.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

  it('Pet and NewPet carry categoryId as a client parses it; StoredPet and StoredNewPet may hold a bigint', () => {
    expect(decisions).toContain('The exported `Pet`/`NewPet` types say `categoryId: number`');
    expect(decisions).toContain(
      '`StoredPet`/`StoredNewPet`, what the store and the runner hold, say `categoryId: number | bigint`',
    );
    // Held by `npm run typecheck` (tsc reads test/): a type that moves fails there.
    expectTypeOf<Pet['categoryId']>().toEqualTypeOf<number>();
    expectTypeOf<NewPet['categoryId']>().toEqualTypeOf<number>();
    expectTypeOf<StoredPet['categoryId']>().toEqualTypeOf<number | bigint>();
    expectTypeOf<StoredNewPet['categoryId']>().toEqualTypeOf<number | bigint>();
  });

  it('Pet carries id as a client parses it; StoredPet may hold a bigint id', () => {
    expect(decisions).toContain('The exported `Pet` type says `id: number`');
    expect(decisions).toContain('`StoredPet` says `id: number | bigint`, as the store holds it');
    expectTypeOf<Pet['id']>().toEqualTypeOf<number>();
    expectTypeOf<StoredPet['id']>().toEqualTypeOf<number | bigint>();
  });
});
