import { compareSchemas, type SchemaWalk } from './compare-schemas.js';
import { finding } from './finding.js';
import { follow, member, type Located } from './json-pointer.js';
import { pathParameterNames, type DocumentOperation } from './list-operations.js';
import { compareSecurity } from './compare-security.js';

/** Parameters, request body, responses and security of one operation both documents have. */
export function compareOperation(walk: SchemaWalk, before: DocumentOperation, after: DocumentOperation): void {
  compareSecurity(walk, before, after);
  compareParameters(walk, before, after);
  compareBodies(walk, before, after);
  compareResponses(walk, before, after);
}

interface ParameterNode {
  name: string;
  in: string;
  required: boolean;
  node: Located;
}

/** Path-level and operation-level parameters, the operation's winning (OpenAPI 3.0 §4.7.10), by `in:name`. */
function parametersOf(document: unknown, operation: DocumentOperation): Map<string, ParameterNode> {
  const found = new Map<string, ParameterNode>();
  for (const owner of [operation.pathItem, operation.node]) {
    const list = member(owner, 'parameters');
    if (!Array.isArray(list?.value)) continue;
    list.value.forEach((_, index) => {
      const node = follow(document, member(list, index));
      const value = node?.value as { name?: unknown; in?: unknown; required?: unknown } | undefined;
      if (!node || typeof value?.name !== 'string' || typeof value.in !== 'string') return;
      // Header names are case-insensitive (RFC 9110 §5.1).
      const name = value.in === 'header' ? value.name.toLowerCase() : value.name;
      found.set(`${value.in}:${name}`, {
        name: value.name,
        in: value.in,
        required: value.required === true || value.in === 'path',
        node,
      });
    });
  }
  return found;
}

function compareParameters(walk: SchemaWalk, before: DocumentOperation, after: DocumentOperation): void {
  const oldParameters = parametersOf(walk.oldDocument, before);
  const newParameters = parametersOf(walk.newDocument, after);
  comparePathParameters(walk, before, after, oldParameters, newParameters);
  const removed = [...oldParameters].filter(([key]) => !newParameters.has(key)).map(([, p]) => p);
  const added = [...newParameters].filter(([key]) => !oldParameters.has(key)).map(([, p]) => p);
  compareRemovedParameters(walk, removed, added);
  compareAddedParameters(walk, before, added);
  compareKeptParameters(walk, oldParameters, newParameters);
}

/** Pairs the path parameters by position, compares each pair, and takes them out of both maps. */
function comparePathParameters(
  walk: SchemaWalk,
  before: DocumentOperation,
  after: DocumentOperation,
  oldParameters: Map<string, ParameterNode>,
  newParameters: Map<string, ParameterNode>,
): void {
  // Path parameters pair by position: the URL a client builds does not carry their names.
  const oldPath = pathParameterNames(before.path);
  const newPath = pathParameterNames(after.path);
  oldPath.forEach((name, index) => {
    const renamed = newPath[index];
    const was = oldParameters.get(`path:${name}`);
    const is = renamed === undefined ? undefined : newParameters.get(`path:${renamed}`);
    oldParameters.delete(`path:${name}`);
    if (renamed !== undefined) newParameters.delete(`path:${renamed}`);
    if (!was || !is) return;
    if (renamed !== name)
      walk.findings.push(
        finding(
          'request.path-parameter-renamed',
          `${walk.operation}: path parameter ${name} is now called ${renamed}; the URL a client sends is the same`,
          { operation: walk.operation, old: was.node.pointer, new: is.node.pointer },
        ),
      );
    compareParameterSchemas(walk, was, is, `path.${renamed}`);
  });
}

/** Each parameter gone: renamed when one of `added` (taken out of it) has its location and type, else removed. */
function compareRemovedParameters(walk: SchemaWalk, removed: ParameterNode[], added: ParameterNode[]): void {
  for (const was of removed) {
    // A parameter gone and another of the same location and type come: a client still sends the old name.
    const partner = added.findIndex(
      (is) => is.in === was.in && typeOf(walk.newDocument, is) === typeOf(walk.oldDocument, was),
    );
    const where = { operation: walk.operation, old: was.node.pointer };
    if (partner >= 0) {
      const [is] = added.splice(partner, 1);
      walk.findings.push(
        finding(
          'request.parameter-renamed',
          `${walk.operation}: ${was.in} parameter ${was.name} is now called ${is!.name}: a client of the old document sends ${was.name}, which is no longer read`,
          { ...where, new: is!.node.pointer },
        ),
      );
      continue;
    }
    walk.findings.push(
      finding(
        'request.parameter-removed',
        `${walk.operation}: ${was.in} parameter ${was.name} is removed: a client that sends it is no longer heard`,
        where,
      ),
    );
  }
}

/** The parameters only the new document has: required ones refuse a client of the old document. */
function compareAddedParameters(walk: SchemaWalk, before: DocumentOperation, added: ParameterNode[]): void {
  for (const is of added) {
    const where = { operation: walk.operation, old: before.node.pointer, new: is.node.pointer };
    if (is.required)
      walk.findings.push(
        finding(
          'request.parameter-added-required',
          `${walk.operation}: ${is.in} parameter ${is.name} is new and required: a client of the old document does not send it and is refused`,
          where,
        ),
      );
    else
      walk.findings.push(
        finding(
          'request.parameter-added',
          `${walk.operation}: ${is.in} parameter ${is.name} is new and optional`,
          where,
        ),
      );
  }
}

/** The parameters both documents have: required or optional now, and their schemas. */
function compareKeptParameters(
  walk: SchemaWalk,
  oldParameters: Map<string, ParameterNode>,
  newParameters: Map<string, ParameterNode>,
): void {
  for (const [key, was] of oldParameters) {
    const is = newParameters.get(key);
    if (!is) continue;
    const where = { operation: walk.operation, old: was.node.pointer, new: is.node.pointer };
    if (!was.required && is.required)
      walk.findings.push(
        finding(
          'request.parameter-became-required',
          `${walk.operation}: ${is.in} parameter ${is.name} is required: a client of the old document may leave it out and be refused`,
          where,
        ),
      );
    if (was.required && !is.required)
      walk.findings.push(
        finding(
          'request.parameter-became-optional',
          `${walk.operation}: ${is.in} parameter ${is.name} is optional`,
          where,
        ),
      );
    compareParameterSchemas(walk, was, is, `${is.in}.${is.name}`);
  }
}

function compareParameterSchemas(walk: SchemaWalk, was: ParameterNode, is: ParameterNode, label: string): void {
  const oldSchema = member(was.node, 'schema');
  const newSchema = member(is.node, 'schema');
  if (oldSchema && newSchema) compareSchemas(walk, oldSchema, newSchema, label, 'request');
}

function typeOf(document: unknown, parameter: ParameterNode): unknown {
  return (follow(document, member(parameter.node, 'schema'))?.value as { type?: unknown } | undefined)?.type;
}

function compareBodies(walk: SchemaWalk, before: DocumentOperation, after: DocumentOperation): void {
  const was = follow(walk.oldDocument, member(before.node, 'requestBody'));
  const is = follow(walk.newDocument, member(after.node, 'requestBody'));
  const required = (body: Located | undefined) =>
    (body?.value as { required?: unknown } | undefined)?.required === true;
  const where = {
    operation: walk.operation,
    old: was?.pointer ?? before.node.pointer,
    new: is?.pointer ?? after.node.pointer,
  };
  if (!was && !is) return;
  if (!was) {
    walk.findings.push(
      required(is)
        ? finding(
            'request.body-added-required',
            `${walk.operation}: a request body is now required: a client of the old document sends none and is refused`,
            where,
          )
        : finding(
            'request.media-type-added',
            `${walk.operation}: an optional request body is accepted (${Object.keys((member(is, 'content')?.value as object | undefined) ?? {}).join(', ')})`,
            where,
          ),
    );
    return;
  }
  if (!is) {
    walk.findings.push(
      finding(
        'request.body-removed',
        `${walk.operation}: the request body is no longer read: what a client sends in it is ignored`,
        where,
      ),
    );
    return;
  }
  if (!required(was) && required(is))
    walk.findings.push(
      finding(
        'request.body-became-required',
        `${walk.operation}: the request body is required: a client of the old document may send none and be refused`,
        where,
      ),
    );
  if (required(was) && !required(is))
    walk.findings.push(
      finding('request.body-became-optional', `${walk.operation}: the request body is optional`, where),
    );
  compareContent(walk, was, is, 'body', 'request');
}

function compareResponses(walk: SchemaWalk, before: DocumentOperation, after: DocumentOperation): void {
  const oldResponses = member(before.node, 'responses');
  const newResponses = member(after.node, 'responses');
  const statuses = (responses: Located | undefined) => Object.keys((responses?.value as object | undefined) ?? {});
  for (const status of statuses(oldResponses)) {
    const was = follow(walk.oldDocument, member(oldResponses, status))!;
    const is = follow(walk.newDocument, member(newResponses, status));
    if (!is) {
      walk.findings.push(
        finding(
          'response.status-removed',
          `${walk.operation}: status ${status} is no longer a documented answer, and a client of the old document may handle it`,
          { operation: walk.operation, status, old: was.pointer, new: newResponses?.pointer ?? after.node.pointer },
        ),
      );
      continue;
    }
    compareContent({ ...walk, status }, was, is, `response ${status} body`, 'response');
  }
  for (const status of statuses(newResponses)) {
    if (statuses(oldResponses).includes(status)) continue;
    walk.findings.push(
      finding('response.status-added', `${walk.operation}: status ${status} is a new documented answer`, {
        operation: walk.operation,
        old: oldResponses?.pointer ?? before.node.pointer,
        new: member(newResponses, status)!.pointer,
      }),
    );
  }
}

/** The media types of a request body or a response, and the schemas of those both documents have. */
function compareContent(
  walk: SchemaWalk,
  was: Located,
  is: Located,
  label: string,
  direction: 'request' | 'response',
): void {
  const oldContent = member(was, 'content');
  const newContent = member(is, 'content');
  const types = (content: Located | undefined) => Object.keys((content?.value as object | undefined) ?? {});
  for (const type of types(oldContent)) {
    const newMedia = member(newContent, type);
    const oldMedia = member(oldContent, type)!;
    if (!newMedia) {
      const message =
        direction === 'request'
          ? `${label} is no longer accepted as ${type}: a client that sends it is refused`
          : `${label} is no longer sent as ${type}, which a client of the old document reads`;
      walk.findings.push(
        finding(`${direction}.media-type-removed`, `${walk.operation}: ${message}`, {
          operation: walk.operation,
          ...(walk.status === undefined ? {} : { status: walk.status }),
          old: oldMedia.pointer,
          new: newContent?.pointer ?? is.pointer,
        }),
      );
      continue;
    }
    const oldSchema = member(oldMedia, 'schema');
    const newSchema = member(newMedia, 'schema');
    if (oldSchema && newSchema) compareSchemas(walk, oldSchema, newSchema, label, direction);
  }
  for (const type of types(newContent)) {
    if (types(oldContent).includes(type)) continue;
    const where = {
      operation: walk.operation,
      ...(walk.status === undefined ? {} : { status: walk.status }),
      old: oldContent?.pointer ?? was.pointer,
      new: member(newContent, type)!.pointer,
    };
    if (direction === 'request')
      walk.findings.push(
        finding('request.media-type-added', `${walk.operation}: ${label} is also accepted as ${type}`, where),
      );
    else
      walk.findings.push(
        finding('response.media-type-added', `${walk.operation}: ${label} may also be sent as ${type}`, where),
      );
  }
}
