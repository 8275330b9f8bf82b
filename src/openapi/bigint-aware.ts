import type { ValidateFunction } from 'ajv';
import { forValidation } from '../json/for-validation.js';

/**
 * The `int64` format as AJV checks it. An int64 beyond ±(2^53−1) is held as a bigint (src/json/int64.ts), which
 * reaches AJV as a stand-in number (forValidation); a *number* beyond that range came from a fraction or an exponent
 * and may not be exact, so it is refused. Kept apart from ajv.ts so that validators compiled at build time (the
 * browser's) use the very same rule without AJV itself.
 */
export const int64Format = { type: 'number', validate: (n: number) => Number.isSafeInteger(n) } as const;

/** A validator that judges a value holding bigints through forValidation; errors point at the same paths. */
export function bigintAware(validate: ValidateFunction): ValidateFunction {
  const wrapped = function validateWithBigints(data: unknown): boolean {
    const valid = validate(forValidation(data));
    wrapped.errors = validate.errors;
    return valid;
  } as ValidateFunction;
  wrapped.schema = validate.schema;
  wrapped.schemaEnv = validate.schemaEnv;
  wrapped.errors = null;
  return wrapped;
}
