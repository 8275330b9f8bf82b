import { follow, member, type Located } from './json-pointer.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of a bundled document, where it is written, and how the comparison pairs it with its counterpart. */
export interface DocumentOperation {
  method: string;
  /** The path template as written: `/pets/{petId}`. */
  path: string;
  /** Method and path with parameter names left out (`GET /pets/{}`): a path parameter renamed is the same URL. */
  key: string;
  operationId: string | undefined;
  /** `GET /pets/{petId} (getPet)`: how a message names it. */
  label: string;
  node: Located;
  pathItem: Located;
}

/** Every operation of a bundled document (OpenAPI 3.0 §4.7.9: the path item's fixed fields per method). */
export function listDocumentOperations(document: unknown): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  const paths = member({ value: document, pointer: '#' }, 'paths');
  for (const path of Object.keys((paths?.value as object | undefined) ?? {})) {
    const pathItem = follow(document, member(paths, path));
    if (!pathItem) continue;
    for (const method of METHODS) {
      const node = member(pathItem, method);
      if (!node) continue;
      const operationId = (node.value as { operationId?: unknown }).operationId;
      const id = typeof operationId === 'string' ? operationId : undefined;
      operations.push({
        method,
        path,
        key: `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`,
        operationId: id,
        label: `${method.toUpperCase()} ${path}${id ? ` (${id})` : ''}`,
        node,
        pathItem,
      });
    }
  }
  return operations;
}

/** The names of a path template's parameters, in order: `/pets/{petId}` → `['petId']`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!);
}
