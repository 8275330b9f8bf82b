import type { Spec } from '../../openapi/load-spec.js';
import { hasV1Operations } from '../engine/pets.js';
import { JUDGED_BY_V1_CASES } from '../generate/operation-cases.js';
import { generatedCase, type GeneratedContractCase } from '../generate/generated-case.js';
import { declaresNoResponses, noResponsesCase } from '../generate/no-responses-case.js';
import { operationPlans, type OperationPlan } from './operation-plan.js';
import { validOperationCase } from './valid-operation-cases.js';
import { refusedOperationCase } from './refused-operation-cases.js';
import { roundTripCases } from './round-trip-cases.js';
import { actionCases } from './action-cases.js';

/**
 * The generated cases of every operation with a path parameter (those without one are operation-cases.ts'), and the
 * round trips of every collection's create and replace: valid requests accepted, every constraint of a body and a
 * parameter broken and refused (the item left as it was), values sent coming back as sent. An operation no request
 * can be built for is listed as a case not run, with the document's reason (operation-plan.ts). On a document with
 * v1's three operations, listPets, createPet and getPet keep the v1 cases.
 */
export function everyOperationCases(spec: Spec): GeneratedContractCase[] {
  const v1 = hasV1Operations(spec);
  const every = operationPlans(spec);
  const plans = every.filter((plan) => !(v1 && JUDGED_BY_V1_CASES.has(plan.operationId)));
  return [
    ...roundTripCases(spec, every),
    ...plans.flatMap((plan) => {
      const operation = spec.operationById.get(plan.operationId)!;
      if (declaresNoResponses(operation)) return [noResponsesCase(operation)];
      if (plan.kind === 'unaddressed') return [unaddressedCase(plan)];
      if (plan.kind === 'action') return actionCases(operation, plan);
      return [...validOperationCase(operation, plan), ...refusedOperationCase(operation, plan)];
    }),
  ];
}

/**
 * An operation no request could be built for: a case that sends nothing and says why, in the document's terms (no
 * example of a path parameter, no create for a write), so that a report never counts it as sent or passed.
 */
function unaddressedCase(plan: Extract<OperationPlan, { kind: 'unaddressed' }>): GeneratedContractCase {
  return generatedCase(
    {
      id: `generated.valid-accepted/${plan.operationId}`,
      check: 'generated.valid-accepted',
      operation: plan.operationId,
      title: `${plan.operationId}: no request could be built`,
      writes: false,
    },
    (ctx) => ctx.skip(`not sent: no request to ${plan.operationId} could be built: ${plan.reason}`),
  );
}
