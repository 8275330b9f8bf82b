import type { ValidateFunction } from 'ajv';
import { fc, type Arbitrary } from '../generate/fast-check.js';

/** How many values are drawn to see whether the generators can make what the document's validator takes. */
const TRIED = 40;
/** Fewer valid ones than this among them and the case does not run on them: the filter would spin. */
const ENOUGH = 4;

/**
 * `arbitrary` kept to the values the document's own validator takes (the one the mock uses), so that "valid" means
 * what the document says, whatever a generator does not honour yet; or, where the generators cannot make such values
 * often enough to be filtered, why, with the validator's first complaint (`/url must match format "uri"`): the case
 * is then skipped naming the keyword, never failed on a value the document refuses.
 */
export function documentValid<T>(
  arbitrary: Arbitrary<T>,
  validate: ValidateFunction | undefined,
  seed: number,
): { arbitrary: Arbitrary<T> } | { reason: string } {
  if (!validate) return { arbitrary };
  const drawn = fc.sample(arbitrary, { seed, numRuns: TRIED });
  const refused = drawn.filter((value) => !validate(value));
  if (drawn.length - refused.length >= ENOUGH) return { arbitrary: arbitrary.filter((value) => validate(value)) };
  validate(refused[0]);
  return {
    reason: `the document's validator refused ${refused.length} of ${drawn.length} generated values (${firstComplaint(validate)}): the generators do not honour that keyword yet`,
  };
}

/** The validator's first complaint, as AJV words it, with where: `/url must match format "uri"`. */
export function firstComplaint(validate: ValidateFunction): string {
  const error = validate.errors?.[0];
  return error ? `${error.instancePath || '(the body)'} ${error.message ?? error.keyword}` : 'no reason given';
}
