import type { OpenAPIV3 } from 'openapi-types';
import { loadSpec, type Spec } from '../spec/load-spec.js';
import { defaultFixturesFile, defaultSpecFile } from '../paths.js';
import { checkFixtures, loadFixtures } from './load-fixtures.js';
import { PetStore, type Pet } from './store.js';
import { createCors, type CorsOptions } from './cors.js';
import { createPipeline, type Exchange, type MockRequest, type Pipeline } from './pipeline.js';
import { petHandlers } from './handlers/pets.js';
import { createFallback } from './fallback.js';

/** The key accepted when none is configured, so that `npx petstore-kit mock` works at once. Printed at start-up. */
export const DEV_API_KEY = 'petstore-dev-key';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface MockOptions {
  /** An OpenAPI 3 file or document; default: the package's openapi.yaml. */
  spec?: string | OpenAPIV3.Document;
  /** A JSON file of Pet records or the records themselves; default: the package's fixtures/pets.json. */
  fixtures?: string | Pet[];
  /** Accepted bearer keys; default: `PETSTORE_API_KEYS` (comma-separated), else the development key. */
  apiKeys?: string[];
  /** The largest request body accepted, in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** The most pets the store holds, fixtures included; a create beyond it gets 409 `store_full`. Default 250,000. */
  maxPets?: number;
  /** CORS for browser apps; default: any origin. `false` turns it off. */
  cors?: CorsOptions | false;
  /** Told about the mock's own failures (5xx); default: printed to stderr. */
  onInternalError?: (error: unknown, request: MockRequest) => void;
}

/** A mock without a transport: the pipeline, its store and what it was built from. */
export interface Mock {
  spec: Spec;
  store: PetStore;
  apiKeys: readonly string[];
  /** True when no key was configured and DEV_API_KEY is in use. */
  usingDevKey: boolean;
  handle: Pipeline;
  /** Called with every finished request (request logs, journals); add and delete freely. */
  observers: Set<(exchange: Exchange) => void>;
  /** Back to the fixtures. */
  reset(): void;
}

/**
 * Builds a mock from an OpenAPI document and fixtures: parses and compiles once, seeds the store, and returns the
 * request pipeline. Use `createMockApp` or `createMockServer` to put it on HTTP.
 * @example const mock = await createMock({ apiKeys: ['secret'] }); mock.store.size // 57
 */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const spec = await loadSpec(options.spec ?? defaultSpecFile);
  const fixtures = options.fixtures ?? defaultFixturesFile;
  const seed = typeof fixtures === 'string' ? await loadFixtures(fixtures, spec) : checkFixtures(fixtures, 'fixtures', spec);
  const store = new PetStore(seed, { maxPets: options.maxPets });
  const configured = options.apiKeys ?? keysFromEnv();
  const apiKeys = configured.length > 0 ? configured : [DEV_API_KEY];
  const observers = new Set<(exchange: Exchange) => void>();
  const needsFallback = spec.operations.some((operation) => !petHandlers[operation.id]);
  const handle = createPipeline({
    spec,
    store,
    apiKeys,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    cors: createCors(options.cors ?? { origins: '*' }),
    handlers: petHandlers,
    fallback: needsFallback ? await createFallback(spec) : undefined,
    onInternalError: options.onInternalError ?? ((error) => console.error('petstore-kit: internal error:', error)),
    observers,
  });
  return { spec, store, apiKeys, usingDevKey: configured.length === 0, handle, observers, reset: () => store.reset() };
}

function keysFromEnv(): string[] {
  return (process.env.PETSTORE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}
