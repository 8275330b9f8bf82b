import type { Spec } from '../../openapi/load-spec.js';
import type { GeneratedContractCase } from '../generate/generated-case.js';
import { roundTripCase } from '../generate/round-trip-case.js';
import { readCases } from '../generate/read-cases.js';
import { invalidCases } from '../generate/invalid-cases.js';
import { operationCases } from '../generate/operation-cases.js';
import { everyOperationCases } from '../operations/every-operation-cases.js';
import { authVariantCases } from '../generate/auth-case.js';
import { statefulCase } from '../stateful/stateful-case.js';
import { resourceSequenceCases } from '../stateful/resource-sequences.js';

/**
 * The generated phase, after the fixed cases: requests derived from the document at run time by fast-check, seeded
 * (`--seed`), within --time-budget and --max-requests. Creates first, so that the reads and the credential checks
 * after them can use pets created late in the run; the model-based sequences last.
 */
export function generatedCases(spec: Spec): GeneratedContractCase[] {
  const cases = [
    ...roundTripCase(spec),
    ...readCases(spec),
    ...invalidCases(spec),
    ...operationCases(spec),
    ...everyOperationCases(spec),
    ...authVariantCases(spec),
    ...statefulCase(spec),
    ...resourceSequenceCases(spec),
  ];
  // Each case's share of the time budget is what is left split over it and the cases after it.
  cases.forEach((contractCase, index) => (contractCase.casesLeft = cases.length - index));
  return cases;
}
