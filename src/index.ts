/**
 * petstore-kit's programmatic API.
 * @example
 * import { createMockServer } from 'petstore-kit';
 * const server = await createMockServer({ apiKeys: ['test-key'] });
 * // … point the app under test at server.url, call server.reset() between tests …
 * await server.close();
 */
export { createMockServer, type MockServer, type ServerOptions, type ReloadEvent } from './mock/server.js';
export { createMock, DEV_API_KEY, DEFAULT_BODY_LIMIT, type Mock, type MockOptions } from './mock/create-mock.js';
export { createMockApp, createMockRouter } from './mock/express-adapter.js';
export { MemoryPetStore } from './mock/store/memory.js';
export { DEFAULT_MAX_PETS, type PetStore, type ListQuery, type StoreSnapshot } from './mock/store/pet-store.js';
export type { Pet, NewPet, PetStatus } from './types.js';
export { Journal, type JournalEntry, type JournalFilter } from './mock/journal.js';
export { ADMIN_PREFIX } from './mock/admin/admin.js';
export { parseDelay, type Latency, type FaultOptions } from './mock/faults.js';
export { loadSpec, type Spec } from './openapi/load-spec.js';
export { findResponse, type Operation } from './openapi/operations.js';
export { describeErrors, type Violation } from './openapi/describe-errors.js';
export { InputError, DocumentError, InputFileError, UsageError } from './input-errors.js';
export { ApiError, apiError, errorKinds, type ErrorBody, type ErrorKind } from './errors.js';
export { createRequestLog, type RequestLog, type RequestLogOptions, type LogFormat } from './log/create-request-log.js';
export type { MockRequest } from './mock/mock-request.js';
export type { ServedRequest, Observer } from './mock/observers.js';
export type { Reply, FinishedReply } from './mock/reply.js';
export type { Runtime } from './mock/runtime.js';
export type { DocumentModel } from './mock/document-model.js';
export { runContract, runContractSuite, type ContractConfig, type ContractReport, type SuiteOptions } from './contract/index.js';
