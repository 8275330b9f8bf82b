/**
 * petstore-kit's programmatic API.
 * @example
 * import { createMockServer } from 'petstore-kit';
 * const server = await createMockServer({ apiKeys: ['test-key'] });
 * // … point the app under test at server.url, call server.reset() between tests …
 * await server.close();
 */
export { createMockServer, type MockServer, type ServerOptions, type ReloadEvent } from './mock/http/server.js';
export { createMock, DEV_API_KEY, DEFAULT_BODY_LIMIT, type Mock, type MockOptions } from './mock/create-mock.js';
export { createMockApp, createMockRouter } from './mock/http/express-adapter.js';
export { MemoryCollectionStore } from './mock/store/memory.js';
/** @deprecated v1's name of MemoryCollectionStore, kept so that v1 code keeps working. */
export { MemoryCollectionStore as MemoryPetStore } from './mock/store/memory.js';
export type { RedisStore, RedisStoreOptions } from './mock/store/redis.js';
/** @deprecated v1's name of RedisStore, kept so that v1 code keeps working. */
export type { RedisStore as RedisPetStore } from './mock/store/redis.js';
export { redactRedisUrl } from './mock/store/redis-url.js';
export {
  DEFAULT_MAX_ITEMS,
  type CollectionStore,
  type ListQuery,
  type StoreSnapshot,
} from './mock/store/collection-store.js';
/** @deprecated v1's names of DEFAULT_MAX_ITEMS and CollectionStore, kept so that v1 code keeps working. */
export {
  DEFAULT_MAX_ITEMS as DEFAULT_MAX_PETS,
  type CollectionStore as PetStore,
} from './mock/store/collection-store.js';
export type { Pet, NewPet, PetStatus, StoredPet, StoredNewPet } from './types.js';
export { Journal, type JournalEntry, type JournalFilter } from './mock/state/journal.js';
export { ADMIN_PREFIX } from './mock/admin/admin.js';
export { parseDelay, type Latency, type FaultOptions } from './mock/base/faults.js';
export type { ControlChanges, ControlState } from './mock/front-door/live-control.js';
export { loadSpec, type Spec } from './openapi/load-spec.js';
export { findResponse, type Operation } from './openapi/operations.js';
export { describeErrors, type Violation } from './openapi/describe-errors.js';
export { InputError, DocumentError, InputFileError, UsageError } from './input-errors.js';
export { ApiError, apiError, errorKinds, type ErrorBody, type ErrorKind } from './errors.js';
export { createRequestLog, type RequestLog, type RequestLogOptions, type LogFormat } from './log/create-request-log.js';
export type { MockRequest } from './mock/mock-request.js';
export type { ServedRequest, Observer } from './mock/front-door/observers.js';
export type { Reply, FinishedReply } from './mock/base/reply.js';
export type { Runtime } from './mock/runtime.js';
export type { DocumentModel } from './mock/document/document-model.js';
export type { ContractConfig, ContractReport, SuiteOptions } from './contract/index.js';
export { createProxyServer, type ProxyOptions, type ProxyServer } from './proxy/create-proxy-server.js';
export type { ProxySummary, ProxyViolation } from './proxy/proxy-summary.js';

// The contract runner is loaded on first call, never by `import 'petstore-kit'`: runContractSuite drives vitest, and a
// library a test imports must not load a test runner (and vite) with it. `petstore-kit/contract` has the whole engine.

type RunContract = typeof import('./contract/run/run-contract.js').runContract;
type RunContractSuite = typeof import('./contract/run/run-contract-suite.js').runContractSuite;

/** Runs the contract suite in-process against `config.baseUrl` (see `petstore-kit/contract`). */
export async function runContract(...args: Parameters<RunContract>): ReturnType<RunContract> {
  const contract = await import('./contract/run/run-contract.js');
  return contract.runContract(...args);
}

/** Runs the contract suite under vitest, as `petstore-kit contract` does (see `petstore-kit/contract`). */
export async function runContractSuite(...args: Parameters<RunContractSuite>): ReturnType<RunContractSuite> {
  const suite = await import('./contract/run/run-contract-suite.js');
  return suite.runContractSuite(...args);
}
