import type * as FastCheck from 'fast-check';

/**
 * fast-check, loaded when the generated phase starts rather than when the suite is listed: a run with the phase
 * off, or one that stops before it (a target that cannot be read or stopped answering), never pays for it (some
 * 20 MB of resident memory across the CLI and vitest's worker). Modules use `fc` as they would the package;
 * every arbitrary is built inside a case's run, after `loadFastCheck()`.
 */
let loaded: typeof FastCheck | undefined;

export async function loadFastCheck(): Promise<typeof FastCheck> {
  if (!loaded) {
    const module = (await import('fast-check')) as typeof FastCheck & { default?: typeof FastCheck };
    loaded = module.default ?? module;
  }
  return loaded;
}

export const fc: typeof FastCheck = new Proxy({} as typeof FastCheck, {
  get(_, name) {
    if (!loaded) throw new Error(`fast-check used before loadFastCheck() (fc.${String(name)})`);
    return loaded[name as keyof typeof FastCheck];
  },
});

export type { Arbitrary, AsyncCommand } from 'fast-check';
