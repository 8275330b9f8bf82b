import type { RuntimeOptions } from './runtime.js';
import type { DocumentSources } from './document/document-model.js';

/** What `createMock` takes: the runtime's options and where the document and fixtures come from. */
export interface MockOptions extends RuntimeOptions, DocumentSources {
  fixtures?: DocumentSources['fixtures'];
}
