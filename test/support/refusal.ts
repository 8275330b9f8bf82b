import type { ApiError } from '../../src/errors.js';

/** The Error body of what `run` throws; a test fails when it is accepted instead. */
export function failure(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    return (error as ApiError).toBody();
  }
  throw new Error('accepted');
}
