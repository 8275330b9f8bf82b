import { fc } from './fast-check.js';
import { mainType } from '../../openapi/schema-keywords.js';
import type { Spec } from '../../openapi/load-spec.js';
import { failure } from '../judge/judge-response.js';
import { integerEdges, validArbitrary } from './valid-arbitrary.js';
import { flatten, toInt } from './json-schema.js';
import { requestSchemas, asParameter } from './request-schemas.js';
import { eachProperty } from './slots.js';
import { runProperty, type Trial } from './run-property.js';
import {
  generatedCase,
  exampleName,
  generatedPets,
  tallyOf,
  JSON_TYPES,
  SCHEMES,
  type GeneratedContractCase,
} from './generated-case.js';
import { differenceFromPet, differenceFromSent } from './same-pet.js';

/**
 * Names longer than this may be refused (size limits on `name` are "not shown"): a 4xx Error is then accepted, but a
 * 201 must still carry the name exactly. Shorter ones must be stored.
 */
export const LONG_NAME = 100;

/** How many creates race in the round-trip case's parallel step. */
const PARALLEL_CREATES = 4;

/**
 * createPet with generated valid NewPets (every property from its schema: any Unicode, control characters and long
 * names, categoryId over the whole int64 range, each status and none), each sent with a valid variation of the
 * request (scheme case, a charset parameter): must be 201 with the pet exactly as sent plus an id, and getPet of
 * that id must give it back the same.
 */
export function roundTripCase(spec: Spec): GeneratedContractCase[] {
  const create = spec.operationById.get('createPet');
  const get = spec.operationById.get('getPet');
  const schema = create && requestSchemas(create).body;
  if (!create || !get || !schema) return [];
  return [
    generatedCase(
      {
        id: 'generated.round-trip/createPet',
        check: 'generated.round-trip',
        operation: 'createPet',
        title: 'generated valid pets are accepted and come back exactly as sent',
        writes: true,
      },
      async (ctx, tally) => {
        const { session } = ctx;
        const arbitrary = fc.record({
          body: validArbitrary(schema),
          type: fc.constantFrom(...JSON_TYPES),
          scheme: fc.constantFrom(...SCHEMES),
        });
        // Every boundary of every integer property once (0, ±2^31, ±2^53, ±2^63 …), then random bodies.
        const flat = flatten(schema);
        const edges = Object.entries(flat.properties ?? {})
          .filter(([, property]) => mainType(flatten(property)) === 'integer')
          .flatMap(([name, property]) =>
            integerEdges(flatten(property)).map((edge) => async () => {
              const bodies = validArbitrary(schema).map((body) => ({
                body: { ...(body as object), [name]: toInt(edge) },
                type: JSON_TYPES[0],
                scheme: SCHEMES[0],
              }));
              tallyOf(
                tally,
                await runProperty(ctx, `generated.round-trip/createPet/${name}=${edge}`, bodies, 1, roundTrip),
              );
            }),
          );
        // Creates racing each other, once in every run (not only when the stateful sequences draw them): each gets
        // an id of its own (§4.2, "the returned Pet carries the assigned id").
        const bodies = fc.array(validArbitrary(schema), { minLength: PARALLEL_CREATES, maxLength: PARALLEL_CREATES });
        const parallel = async () =>
          tallyOf(tally, await runProperty(ctx, 'generated.round-trip/createPet/parallel', bodies, 1, createAtOnce));
        const random = async () =>
          tallyOf(
            tally,
            await runProperty(ctx, 'generated.round-trip/createPet', arbitrary, session.config.runs, roundTrip),
          );
        await eachProperty(session, [...edges, parallel, random], (property) => property());
      },
    ),
  ];
}

/** Sends the generated NewPets as createPets all at once; two of them given one id fail stateful.unique-ids. */
async function createAtOnce(trial: Trial, generated: unknown[]): Promise<void> {
  const { session } = trial;
  const sent = await trial.sendAll(
    generated.map((body, index) => ({
      operation: 'createPet',
      json: {
        ...(body as object),
        name: exampleName(session, 'p', trial.property, `${trial.example}.${index}`, (body as { name?: unknown }).name),
      },
    })),
  );
  const created = sent.filter((answer) => answer.usable && answer.status === 201);
  for (const answer of created) generatedPets(session).push(answer.body as Record<string, unknown>);
  const keys = created.map((answer) => String((answer.body as Record<string, unknown>).id));
  const twice = keys.findIndex((id, index) => keys.indexOf(id) !== index);
  if (twice !== -1)
    trial.fail(
      failure(
        'stateful.unique-ids',
        created[twice]!,
        `${PARALLEL_CREATES} creates sent at once get ${PARALLEL_CREATES} different ids`,
        `id ${keys[twice]} was given to two of them (ids: ${keys.join(', ')})`,
      ),
    );
}

/** Sends a valid NewPet with the run's tag, then checks the answer and getPet against it. */
async function roundTrip(
  trial: Trial,
  { body, type, scheme }: { body: unknown; type: string; scheme: string },
): Promise<void> {
  const { session } = trial;
  const key = session.config.apiKey;
  const sent = { ...(body as Record<string, unknown>) };
  sent.name = exampleName(session, 'g', trial.property, trial.example, sent.name);
  const created = await trial.send({
    operation: 'createPet',
    json: sent,
    contentType: type,
    authorization: `${scheme} ${key}`,
  });
  const long = typeof sent.name === 'string' && [...sent.name].length > LONG_NAME;
  if (created.status !== 201) {
    // A long name may meet a size limit; anything else valid must be stored.
    if (
      long &&
      created.status !== undefined &&
      created.status >= 400 &&
      created.status < 500 &&
      created.status !== 401 &&
      created.status !== 403
    )
      return;
    if (created.status !== undefined && created.status < 500)
      trial.fail(
        failure(
          'generated.valid-accepted',
          created,
          `201 for a valid NewPet (${type}, scheme "${scheme}")`,
          `${created.status}`,
        ),
      );
    return;
  }
  if (!created.usable) return;
  const pet = created.body as Record<string, unknown>;
  const changed = differenceFromSent(sent, pet);
  if (changed)
    return trial.fail(failure('generated.round-trip', created, 'the created pet as sent, plus an id', changed));
  generatedPets(session).push(pet);
  const got = await trial.send({
    operation: 'getPet',
    path: { petId: asParameter(pet.id) },
    authorization: `${scheme} ${key}`,
  });
  if (!got.usable) return;
  if (got.status !== 200)
    return trial.fail(failure('generated.round-trip', got, 'getPet of a pet just created: 200', `${got.status}`));
  const differs = differenceFromPet(pet, got.body as Record<string, unknown>);
  if (differs)
    trial.fail(failure('generated.round-trip', got, 'getPet gives back the pet as createPet answered it', differs));
}
