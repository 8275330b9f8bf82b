import { describe, it } from 'vitest';

const inCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * `describe` for tests that need something installed on the machine (Chromium, redis-server). `missing` says what is
 * not there and how to install it. Without it the tests are skipped with a visible message on a developer's machine;
 * in CI (CI=true) they run and fail with that message, so they never pass by vanishing.
 */
export function describeNeeding(what: string, missing: string | undefined, name: string, body: () => void): void {
  if (missing && !inCi) {
    process.stderr.write(`\n!! skipping "${name}": ${missing}\n\n`);
    describe.skip(name, body);
    return;
  }
  if (missing) {
    describe(name, () =>
      it(`has ${what} (CI=true)`, () => {
        throw new Error(missing);
      }),
    );
    return;
  }
  describe(name, body);
}
