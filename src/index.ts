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
export { createMockApp, createMockRouter } from './mock/app.js';
export { PetStore, type Pet, type NewPet, type StoreSnapshot } from './mock/store.js';
export { Journal, type JournalEntry, type JournalFilter } from './mock/journal.js';
export { ADMIN_PREFIX } from './mock/admin/admin.js';
export { parseDelay, type Latency, type FaultOptions } from './mock/faults.js';
export { loadSpec, type Spec } from './openapi/load-spec.js';
export { findResponse, type Operation } from './openapi/operations.js';
export { describeErrors, type Violation } from './openapi/describe-errors.js';
export { SpecError } from './openapi/errors.js';
export { ApiError, apiError, errorKinds, type ErrorBody, type ErrorKind } from './errors.js';
export { createRequestLog, type RequestLog, type RequestLogOptions, type LogFormat } from './log/create-request-log.js';
export type { Exchange, MockRequest } from './mock/pipeline.js';
export { runContract, runContractSuite, type ContractConfig, type ContractReport, type SuiteOptions } from './contract/index.js';
