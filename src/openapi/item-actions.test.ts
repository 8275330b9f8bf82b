import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.js';
import { itemActionOf } from './item-actions.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const thing = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
const ok = { '200': { description: 'OK.', ...json(thing) } };
const idOf = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });

// A document written for the test, as plain data (extensions included).
const document: Record<string, unknown> = {
  openapi: '3.1.0',
  info: { title: 'actions', version: '1' },
  paths: {
    '/pets': { post: { operationId: 'addPet', requestBody: json(thing), responses: { '201': ok['200'] } } },
    '/pets/{petId}': {
      parameters: [idOf('petId')],
      get: { operationId: 'getPet', responses: ok },
      post: { operationId: 'touchPet', responses: ok },
      put: { operationId: 'keepPet', 'x-petstore-kit-role': 'none', requestBody: json(thing), responses: ok },
    },
    '/pets/{id}/vaccinate': { parameters: [idOf('id')], post: { operationId: 'vaccinate', responses: ok } },
    '/pets/{petId}/photos': {
      parameters: [idOf('petId')],
      post: { operationId: 'addPhoto', requestBody: json(thing), responses: { '201': ok['200'] } },
    },
    '/pets/{petId}/photos/{photoId}': {
      parameters: [idOf('petId'), idOf('photoId')],
      get: { operationId: 'getPhoto', responses: ok },
    },
    '/pets/{petId}/photos/{photoId}/like': {
      parameters: [idOf('petId'), idOf('photoId')],
      post: { operationId: 'likePhoto', responses: ok },
    },
    '/pets/{petId}/owners/{ownerId}': {
      parameters: [idOf('petId'), idOf('ownerId')],
      post: { operationId: 'adopt', responses: ok },
    },
    '/stores/{storeId}/open': { parameters: [idOf('storeId')], post: { operationId: 'openStore', responses: ok } },
  },
};
const spec = await loadSpec(document as unknown as Parameters<typeof loadSpec>[0]);

/** Each operation: the collection whose item it acts on, and the names that differ; or none. */
const actionOf = (operationId: string) => {
  const action = itemActionOf(spec.resources, spec.operationById.get(operationId)!);
  return action && [action.collection.path, action.names];
};

describe('which operations act on an item', () => {
  it.for([
    ['touchPet', ['/pets', { petId: 'petId' }], 'the item path itself, under a method with no role there'],
    ['vaccinate', ['/pets', { petId: 'id' }], 'the item path and a literal segment, its parameter named by place'],
    ['likePhoto', ['/pets/{petId}/photos', { petId: 'petId', photoId: 'photoId' }], 'the longest item path wins'],
    ['getPet', undefined, 'a role of its own'],
    ['addPhoto', undefined, 'a nested collection’s create'],
    ['keepPet', undefined, 'x-petstore-kit-role: none, the user’s word'],
    ['adopt', undefined, 'a template after the item path: no item path of a collection'],
    ['openStore', undefined, 'no collection /stores'],
  ] as const)('%s: %j (%s)', ([operationId, expected]) => {
    expect(actionOf(operationId)).toEqual(expected);
  });
});
