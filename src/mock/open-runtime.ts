import { resolve } from 'node:path';
import type { Spec } from '../openapi/spec.js';
import type { ResourceStore, StoreSeeds } from './store/resource-store.js';
import { openStore } from './store/open-store.js';
import { StateFile } from './state/state-file.js';
import { resolveStatePath } from './state/state-path.js';
import { acquireStateLock } from './state/state-lock.js';
import { InputFileError, UsageError } from '../input-errors.js';
import { acceptKeys, assembleRuntime, type Runtime, type RuntimeOptions } from './runtime.js';

/**
 * Makes the server's runtime for a mock whose first document and fixtures are `spec` and `seed`: keys from the
 * options or `PETSTORE_API_KEYS`, the store the options ask for, the `--state` file.
 */
export async function openRuntime(options: RuntimeOptions, spec: Spec, seeds: StoreSeeds): Promise<Runtime> {
  // Checked before the store opens: a bad key is a usage error, with no Redis connection to release.
  const keys = acceptKeys(options.apiKeys ?? keysFromEnv());
  // Memory, or Redis shared by replicas (open-store.ts): nothing below knows which.
  const store = await openStore(options, spec, seeds);
  let stateFile: StateFile | undefined;
  if (options.state !== undefined) {
    const file = options.state;
    try {
      stateFile = await openStateFile(file, options.fixtures, spec, store);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return assembleRuntime(options, { keys, store, stateFile });
}

/**
 * The `--state` file, locked for this mock (a second mock on it stops, naming the holder: state-lock.ts), its saved
 * state restored into `store`, and written once now so that an unwritable place is a start-up error. A symbolic
 * link is followed: the state goes to the real file, and the lock and temporary file beside it.
 */
async function openStateFile(
  file: string,
  fixtures: RuntimeOptions['fixtures'],
  spec: Spec,
  store: ResourceStore,
): Promise<StateFile> {
  const statePath = await resolveStatePath(file);
  if (typeof fixtures === 'string' && statePath === (await resolveStatePath(fixtures).catch(() => resolve(fixtures)))) {
    throw new UsageError(`${file}: the state file must not be the fixtures file, which is never modified`);
  }
  const lock = await acquireStateLock(statePath);
  try {
    const saved = await StateFile.load(statePath, spec);
    if (saved) await store.restore(saved);
    const stateFile = new StateFile(statePath, () => store.snapshot(), { lock });
    await stateFile.flush().catch((error: NodeJS.ErrnoException) => {
      throw new InputFileError(`${file}: cannot be written (${error.code ?? error.message})`);
    });
    return stateFile;
  } catch (error) {
    await lock.release();
    throw error;
  }
}

function keysFromEnv(): string[] {
  return (process.env.PETSTORE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}
