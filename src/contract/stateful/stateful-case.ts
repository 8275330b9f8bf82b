import { fc } from '../generate/fast-check.js';
import type { Spec } from '../../openapi/load-spec.js';
import { flatten } from '../generate/json-schema.js';
import { integerArbitrary, validArbitrary } from '../generate/valid-arbitrary.js';
import { requestSchemas } from '../generate/request-schemas.js';
import { runProperty } from '../generate/run-property.js';
import { generatedCase, tallyOf, type GeneratedContractCase } from '../generate/generated-case.js';
import {
  Broken,
  CreateCommand,
  CreateSameNameCommand,
  CreateParallelCommand,
  GetCommand,
  GetUnknownCommand,
  ListCommand,
  type UnknownKind,
} from './commands.js';
import { PetModel } from './pet-model.js';

/** Names drawn from a small pool, so that sequences repeat them: a repeated name must still make a new pet. */
const NAMES = ['Rex', 'Rex', 'Émile', '猫', '🐈‍⬛', 'a"b\\c', 'tab\there', 'nul\u0000byte'];
const UNKNOWN: UnknownKind[] = ['between', 'max-int64', 'minus-one', 'zero', 'beyond-int64'];
/** A sequence holds at most this many commands (before shrinking). */
const MAX_COMMANDS = 12;

/**
 * Model-based checking (fast-check's commands): random sequences of create (one, or several in parallel), list
 * (with and without limit and status) and get (of the sequence's pets, and of ids no pet has), each checked against
 * a model of the pets the sequence created. A broken property ends the sequence; fast-check shrinks it to the
 * shortest that still breaks, reported as a curl script. Read-only runs generate lists and gets only.
 */
export function statefulCase(spec: Spec): GeneratedContractCase[] {
  const create = spec.operationById.get('createPet');
  const list = spec.operationById.get('listPets');
  const get = spec.operationById.get('getPet');
  const body = create && requestSchemas(create).body;
  if (!create || !list || !get || !body) return [];
  const query = requestSchemas(list).query;
  const limitSchema = query.find((p) => p.name === 'limit')?.schema;
  const statusSchema = query.find((p) => p.name === 'status')?.schema;
  // The document's default, or none: a list without limit is then as long as the target likes (page-bounds.ts).
  const byDefault = (limitSchema as { default?: unknown } | undefined)?.default;
  const defaultLimit = typeof byDefault === 'number' ? byDefault : undefined;
  const statuses = (statusSchema?.enum ?? []).map(String);
  return [
    generatedCase(
      {
        id: 'stateful/pets',
        check: 'stateful.list',
        operation: 'listPets',
        title: 'random create/list/get sequences agree with a model of the pets they created',
        writes: false,
      },
      async (ctx, tally) => {
        const { session } = ctx;
        const newPet = fc
          .tuple(validArbitrary(body), fc.constantFrom(...NAMES))
          .map(([pet, name]) => ({ ...(pet as Record<string, unknown>), name }));
        const limits = limitSchema
          ? integerArbitrary(flatten(limitSchema)).map(Number)
          : fc.integer({ min: 1, max: 100 });
        // Small limits make "shorter than its limit" rare and "exactly limit" common; both matter.
        // Each absent half the time (fast-check: nil with probability 1/freq): the default limit, with and without status, matters as much as a given one.
        const limit = fc.option(fc.oneof(limits, fc.integer({ min: 1, max: 5 })), { nil: undefined, freq: 2 });
        const status = statuses.length
          ? fc.option(fc.constantFrom(...statuses), { nil: undefined, freq: 2 })
          : fc.constant(undefined);
        const list = fc.tuple(limit, status).map(([l, s]) => new ListCommand(l, s));
        const unknown = fc.constantFrom(...UNKNOWN).map((kind) => new GetUnknownCommand(kind));
        // Reads weigh double: a fault in them needs the right query after the right creates.
        const reads = [list, list, unknown, unknown];
        const writes = [
          newPet.map((pet) => new CreateCommand(pet)),
          newPet.map((pet) => new CreateCommand(pet)),
          fc.array(newPet, { minLength: 2, maxLength: 5 }).map((pets) => new CreateParallelCommand(pets)),
          fc.tuple(fc.nat(), newPet).map(([pick, pet]) => new CreateSameNameCommand(pick, pet)),
          fc.nat().map((pick) => new GetCommand(pick)),
        ];
        const commands = fc.commands(session.config.readOnly ? reads : [...writes, ...reads], {
          maxCommands: MAX_COMMANDS,
        });
        tallyOf(
          tally,
          await runProperty(
            ctx,
            'stateful/pets',
            commands,
            Math.max(15, Math.ceil(session.config.runs / 4)),
            async (trial, sequence) => {
              try {
                await fc.asyncModelRun(
                  () => ({ model: new PetModel(), real: { trial, session, defaultLimit } }),
                  sequence,
                );
              } catch (error) {
                if (!(error instanceof Broken)) throw error;
              } finally {
                // The commands that ran, in order: fast-check's sequence prints those it executed (a toString its Iterable
                // type does not declare).
                trial.label = `sequence: ${(sequence as { toString(): string }).toString().replace(/\s*\/\*replayPath=.*\*\/\s*$/, '')}`;
              }
            },
          ),
        );
      },
    ),
  ];
}
