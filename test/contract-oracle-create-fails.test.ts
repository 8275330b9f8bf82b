import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { runOracleAlone, specAt } from './support/oracle-words.js';

/**
 * A create the oracles need and the target refuses (409 to a valid body, test/targets/resource-petstore.ts) ends each
 * resource and collection oracle there, with one failure under the case's own check id: the create it makes first,
 * the parent a nested case makes first, or the one after a refused create. Cases that create nothing of that
 * collection run on. A mutation run (`npm run mutation`) kills on it the check ids each oracle hands its creates.
 */
const KEY = 'oracle-create-fails-key-2b7d';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const CONFLICT = '409 application/json {"code":"conflict","message":"conflict","status":409}';

const oracles = contractCases(await specAt(v11))
  .filter((c) => c.check.startsWith('resource.'))
  .map((c) => [c.id, c.check] as const);

/** The cases each fault ends, and the create that failed in them. */
const FAULTS = {
  // Every pet create: the pets' cases (but the unknown id, which creates nothing) and every photo case (its parent).
  'valid-create-409': {
    create: 'createPet',
    ends: (id: string) => /\/pets(\/photos)?$/.test(id) && id !== 'resource.unknown-id/pets',
  },
  // Every photo create: the photo cases but the unknown id, after their parent pet was made.
  'photo-create-409': {
    create: 'addPetPhoto',
    ends: (id: string) => id.endsWith('/photos') && !id.startsWith('resource.unknown-id/'),
  },
} as const;

describe('a create the target refuses', () => {
  it.each(Object.keys(FAULTS) as (keyof typeof FAULTS)[])(
    "%s: ends each case it reaches, under the case's own check",
    async (fault) => {
      const { create, ends } = FAULTS[fault];
      const verdicts: [string, string[][], string | undefined][] = [];
      for (const [id] of oracles) {
        const words = await runOracleAlone(KEY, v11, contractCases, fault, id);
        verdicts.push([id, words.failures, words.skipped]);
      }
      expect(verdicts).toEqual(
        oracles.map(([id, check]) =>
          ends(id)
            ? [id, [[check, `a 2xx to a valid ${create} (201 declared)`, CONFLICT]], undefined]
            : [id, [], undefined],
        ),
      );
    },
  );
});
