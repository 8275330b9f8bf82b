import type { Spec } from '../../openapi/load-spec.js';
import { isSchemaNode } from '../../openapi/schema-keywords.js';

/**
 * One Link Object (OpenAPI 3.0.3 §4.7.20) that names an operation and gives some of its parameters from a response
 * body: the operation whose response carries it, and for each parameter the JSON pointer into that body
 * (`username: $response.body#/owner/username` → `/owner/username`). Other expressions (a request's values, a
 * header, a constant) are left out: a body is what the runner reads back.
 */
export interface LinkFrom {
  name: string;
  source: string;
  parameters: Record<string, string>;
}

/** `$response.body#/a/b` → `/a/b`; `$response.body` → ``; anything else → undefined (§4.7.20.4, Runtime Expressions). */
function bodyPointer(expression: unknown): string | undefined {
  if (typeof expression !== 'string') return undefined;
  const match = /^\$response\.body(?:#(\/.*)?)?$/.exec(expression);
  return match ? (match[1] ?? '') : undefined;
}

/** The links of any operation's 2xx responses that name `operationId` by its operationId. */
export function linksTo(spec: Spec, operationId: string): LinkFrom[] {
  const found: LinkFrom[] = [];
  for (const operation of spec.operations) {
    for (const [status, response] of Object.entries(operation.object.responses ?? {})) {
      if (!/^2/.test(status) || !isSchemaNode(response) || !isSchemaNode(response.links)) continue;
      for (const [name, link] of Object.entries(response.links)) {
        if (!isSchemaNode(link) || link.operationId !== operationId || !isSchemaNode(link.parameters)) continue;
        const parameters: Record<string, string> = {};
        for (const [parameter, expression] of Object.entries(link.parameters)) {
          const pointer = bodyPointer(expression);
          // A parameter may be named `path.id` where names repeat across locations (§4.7.20.1).
          if (pointer !== undefined) parameters[parameter.replace(/^path\./, '')] = pointer;
        }
        if (Object.keys(parameters).length > 0) found.push({ name, source: operation.id, parameters });
      }
    }
  }
  return found;
}

/** RFC 6901: the value at `pointer` in `document`, or undefined when nothing is there. */
export function atPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let at: unknown = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at) && /^(0|[1-9]\d*)$/.test(key)) at = at[Number(key)];
    else if (isSchemaNode(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}
