import type { Spec } from '../../openapi/load-spec.js';
import type { ContractCase } from '../engine/run-case.js';
import { sampleCase, limitCases, defaultLimitCases, statusFilterCases } from '../cases/list-cases.js';
import { hasV1Operations, listBounds } from '../engine/pets.js';
import { createCases } from '../cases/create-cases.js';
import { getCases } from '../cases/get-cases.js';
import { invalidInputCases } from '../cases/invalid-input-cases.js';
import { authCases } from '../cases/auth-cases.js';
import { deprecationCases } from '../cases/deprecation-cases.js';
import { coverageCase } from '../cases/coverage-case.js';
import { collectionOracleCases } from '../stateful/collection-oracles.js';
import { generatedCases } from './generated-cases.js';
import { resourceOracleCases, type JudgedElsewhere } from '../stateful/resource-oracles.js';

/**
 * The suite, in the order it runs: look first (the sample list), then write (creates, each followed by its
 * persistence check), then the list and get behaviour over what is now stored, bad input, auth, deprecation, and
 * then the generated phase (requests derived from the document, and model-based sequences), and coverage last,
 * over every exchange of the run. Operations and status values come from the document.
 */
export function contractCases(spec: Spec): ContractCase[] {
  // A document without v1's operations (renamed, or other collections only) gets no v1 case: the resource oracles
  // and the generated cases judge what those would have, under their own ids.
  const v1 = hasV1Operations(spec);
  const elsewhere: JudgedElsewhere = v1 ? judgedByFixedCases : { fields: new Map(), filters: new Map() };
  return [
    ...(v1 ? v1FixedCases(spec) : []),
    ...authCases(spec),
    ...deprecationCases(spec),
    ...resourceOracleCases(spec, elsewhere),
    ...collectionOracleCases(spec, elsewhere),
    ...generatedCases(spec),
    coverageCase,
  ];
}

/** v1's fixed cases, over listPets, getPet and createPet. */
function v1FixedCases(spec: Spec): ContractCase[] {
  const statuses = petStatuses(spec);
  // listPets' limit bounds and default as the document gives them (v1: 1, 100, 20), not as v1 fixed them.
  const bounds = listBounds(spec);
  return [
    sampleCase(bounds),
    ...createCases(statuses, bounds),
    ...limitCases(bounds),
    ...defaultLimitCases(bounds),
    ...statusFilterCases(statuses, bounds),
    ...getCases,
    ...invalidInputCases(bounds),
  ];
}

/** The values of listPets' `status` parameter, as the document states them (PetStatus, interface §2). */
function petStatuses(spec: Spec): string[] {
  const parameter = spec.operationById.get('listPets')?.parameters.find((p) => p.name === 'status');
  const schema = parameter?.validate.schema as { enum?: unknown[] } | undefined;
  return (schema?.enum ?? []).map(String);
}

/**
 * What the fixed cases above judge under their v1 ids (create.echo and create.persisted: a createPet body's name,
 * categoryId and status; list.status-filter: listPets' status), so that the resource oracles judge the rest and a
 * fault shows under one id: on v1 they add no case.
 */
const judgedByFixedCases: JudgedElsewhere = {
  fields: new Map([['createPet', ['name', 'categoryId', 'status']]]),
  filters: new Map([['listPets', ['status']]]),
  operations: ['getPet'],
  uniqueIds: ['createPet'],
  limits: ['listPets'],
};
