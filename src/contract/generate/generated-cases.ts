import type { Spec } from '../../openapi/load-spec.js';
import type { ContractCase } from '../run-case.js';
import { roundTripCase } from './round-trip-case.js';
import { readCases } from './read-cases.js';
import { invalidCases } from './invalid-cases.js';
import { authVariantCases } from './auth-case.js';
import { statefulCase } from '../stateful/stateful-case.js';

/**
 * The generated phase, after the fixed cases: requests derived from the document at run time by fast-check, seeded
 * (`--seed`), within --time-budget and --max-requests. Creates first, so that the reads and the credential checks
 * after them can use pets created late in the run; the model-based sequences last.
 */
export function generatedCases(spec: Spec): ContractCase[] {
  return [...roundTripCase(spec), ...readCases(spec), ...invalidCases(spec), ...authVariantCases(spec), ...statefulCase(spec)];
}
