import { fc } from './fast-check.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import { failure } from '../judge/judge-response.js';
import { validArbitrary } from './valid-arbitrary.js';
import { requestSchemas, asParameter } from './request-schemas.js';
import { runProperty } from './run-property.js';
import { generatedCase, generatedPets, tallyOf, SCHEMES, type GeneratedContractCase } from './generated-case.js';
import { differenceFromPet, idKey } from './same-pet.js';
import { askedBound, unaskedBound } from '../engine/page-bounds.js';

/**
 * listPets with generated valid queries (each parameter present or absent, limit over 1…100, every status) and
 * getPet of pets the run has seen, each with the key's scheme in any letter case: answered 200, at most `limit`
 * (or the default) pets, only of the status asked for, no id twice; getPet gives the pet asked for.
 */
export function readCases(spec: Spec): GeneratedContractCase[] {
  const cases: GeneratedContractCase[] = [];
  const list = spec.operationById.get('listPets');
  if (list) cases.push(listPetsCase(list));
  if (spec.operationById.get('getPet')) cases.push(getPetCase());
  return cases;
}

/** listPets with generated valid queries: 200, at most `limit` pets, only of the status asked for, no id twice. */
function listPetsCase(list: Operation): GeneratedContractCase {
  const { query } = requestSchemas(list);
  const limitDefault = query.find((p) => p.name === 'limit')?.schema as { default?: number } | undefined;
  return generatedCase(
    {
      id: 'generated.valid-accepted/listPets',
      check: 'generated.valid-accepted',
      operation: 'listPets',
      title: 'generated valid listPets queries are answered as the document says',
      writes: false,
    },
    async (ctx, tally) => {
      const { session } = ctx;
      const record = fc.record(Object.fromEntries(query.map((p) => [p.name, validArbitrary(p.schema)])), {
        requiredKeys: query.filter((p) => p.required).map((p) => p.name),
      });
      const arbitrary = fc.record({ query: record, scheme: fc.constantFrom(...SCHEMES) });
      tallyOf(
        tally,
        await runProperty(
          ctx,
          'generated.valid-accepted/listPets',
          arbitrary,
          Math.ceil(session.config.runs / 2),
          async (trial, { query: values, scheme }) => {
            const query = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, asParameter(value)]));
            const sent = await trial.send({
              operation: 'listPets',
              query,
              authorization: `${scheme} ${session.config.apiKey}`,
            });
            if (!sent.usable) return;
            if (sent.status !== 200)
              return trial.fail(
                failure('generated.valid-accepted', sent, '200 for a valid listPets query', `${sent.status}`),
              );
            const pets = sent.body as Record<string, unknown>[];
            // Only as bounded as the document bounds it: no default, or a limit below 1, promises no page size.
            const limit =
              query.limit === undefined
                ? unaskedBound({ default: limitDefault?.default })
                : askedBound(Number(query.limit));
            if (limit !== undefined && pets.length > limit) {
              return trial.fail(
                failure(
                  query.limit === undefined ? 'list.default-limit' : 'list.limit',
                  sent,
                  `at most ${limit} pets${query.limit === undefined ? ' (the default limit)' : ''}`,
                  `${pets.length} pets`,
                ),
              );
            }
            if (query.status !== undefined) {
              const other = pets.find((pet) => pet.status !== query.status);
              if (other)
                return trial.fail(
                  failure(
                    'list.status-filter',
                    sent,
                    `only pets with status "${query.status}"`,
                    `pet ${idKey(other.id)} has status ${JSON.stringify(other.status ?? null)}`,
                  ),
                );
            }
            const ids = pets.map((pet) => idKey(pet.id));
            const twice = ids.find((id, index) => ids.indexOf(id) !== index);
            if (twice !== undefined)
              trial.fail(
                failure('list.no-duplicates', sent, 'every id at most once in a list', `id ${twice} is listed twice`),
              );
          },
        ),
      );
    },
  );
}

/** getPet of pets the run has seen (and of ids between them), the scheme in any case: the pet asked for. */
function getPetCase(): GeneratedContractCase {
  return generatedCase(
    {
      id: 'generated.valid-accepted/getPet',
      check: 'generated.valid-accepted',
      operation: 'getPet',
      title: 'getPet of pets the run has seen, the scheme in any case, gives the pet asked for',
      writes: false,
    },
    async (ctx, tally) => {
      const { session } = ctx;
      // Pets cannot change (the interface has no update or delete): one seen in a list or a create answer must
      // come back from getPet exactly so (§4.3, "the requested animal").
      const seen = new Map<string, Record<string, unknown>>();
      for (const pet of [
        ...(session.findings.sample ?? []),
        ...session.findings.created.map((c) => c.pet),
        ...generatedPets(session),
      ] as Record<string, unknown>[])
        seen.set(idKey(pet.id), pet);
      const known = [...seen.values()];
      if (known.length === 0) ctx.skip('the run has seen no pet to fetch');
      const gaps = gapIds(known.map((pet) => pet.id)).filter((id) => !seen.has(String(id)));
      const arbitrary = fc.record({
        index: fc.nat({ max: known.length - 1 }),
        gap: gaps.length ? fc.option(fc.nat({ max: gaps.length - 1 }), { freq: 3 }) : fc.constant(null),
        scheme: fc.constantFrom(...SCHEMES),
      });
      tallyOf(
        tally,
        await runProperty(
          ctx,
          'generated.valid-accepted/getPet',
          arbitrary,
          Math.ceil(session.config.runs / 4),
          async (trial, { index, gap, scheme }) => {
            if (gap !== null) {
              // An id between listed ids that no pet seen has: 404, or a pet with exactly that id (another client's,
              // or one beyond the first page); never a neighbour. The judge checks the id of every getPet 200.
              await trial.send({
                operation: 'getPet',
                path: { petId: String(gaps[gap]) },
                authorization: `${scheme} ${session.config.apiKey}`,
              });
              return;
            }
            const pet = known[index]!;
            const sent = await trial.send({
              operation: 'getPet',
              path: { petId: asParameter(pet.id) },
              authorization: `${scheme} ${session.config.apiKey}`,
            });
            if (!sent.usable) return;
            if (sent.status !== 200)
              return trial.fail(
                failure(
                  'generated.valid-accepted',
                  sent,
                  `200 for pet ${idKey(pet.id)}, which the run has seen`,
                  `${sent.status}`,
                ),
              );
            const differs = differenceFromPet(pet, sent.body as Record<string, unknown>);
            if (differs)
              trial.fail(
                failure(
                  'get.returns-requested',
                  sent,
                  `pet ${idKey(pet.id)} as the run saw it (listed or created)`,
                  differs,
                ),
              );
          },
        ),
      );
    },
  );
}

/** Integer ids strictly between consecutive ids seen (at most 64, spread out): ids a target may not hold. */
function gapIds(ids: unknown[]): bigint[] {
  const sorted = [
    ...new Set(ids.filter((id) => typeof id === 'number' || typeof id === 'bigint').map((id) => BigInt(id))),
  ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const gaps: bigint[] = [];
  for (let i = 1; i < sorted.length && gaps.length < 64; i++)
    if (sorted[i]! - sorted[i - 1]! > 1n) gaps.push(sorted[i - 1]! + (sorted[i]! - sorted[i - 1]!) / 2n);
  return gaps;
}
