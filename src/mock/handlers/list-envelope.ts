import type { CompileSchema } from '../../openapi/operations.js';
import type { ResourceOperation } from '../../openapi/resource-types.js';
import { isSchemaNode } from '../../openapi/schema-keywords.js';
import { propertyDeclarations } from '../../openapi/list-wrapper.js';
import { minimalValue } from '../base/minimal-value.js';

/** Puts a page of items into the list's answer: the items themselves, or an object holding them in its wrapper. */
export type WrapList = (items: readonly unknown[]) => unknown;

/**
 * How a list answers its items. A list whose answer is an object holding them in one property (the model's
 * `wrapper`, list-wrapper.ts) answers that object: the items in the wrapper, and its other members made as the mock
 * makes any answer from a schema (minimal-value.ts: required members always, each optional one, `links` in
 * `{data, links}`, only where the answer stays valid against the document's compiled validator). Decided once per
 * document, so every page carries the same members.
 * @example listEnvelope(listBookings, spec.compile)([booking]) // { links: {}, data: [booking] }
 */
export function listEnvelope(list: ResourceOperation, compile: CompileSchema): WrapList {
  const wrapper = list.wrapper;
  const schema = list.success.schema;
  if (wrapper === undefined || schema === undefined) return (items) => items;
  const validate = compile(schema, 'response');
  const least = minimalValue(schema);
  const members: Record<string, unknown> = isSchemaNode(least) ? { ...least } : {};
  delete members[wrapper];
  for (const [name, declarations] of propertyDeclarations(schema)) {
    if (name === wrapper || name in members) continue;
    const value = minimalValue({ allOf: declarations });
    if (value !== null && validate({ ...members, [name]: value, [wrapper]: [] })) members[name] = value;
  }
  return (items) => ({ ...members, [wrapper]: items });
}
