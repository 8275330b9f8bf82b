import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { fileURLToPath } from 'node:url';
import { loadSpec } from './load-spec.js';
import { buildResourceModel, type ResourceModel } from './resource-model.js';
import { DocumentError } from '../input-errors.js';

const v11File = fileURLToPath(new URL('../../test/fixtures/documents/petstore-v1.1.yaml', import.meta.url));

async function modelOf(source?: string | OpenAPIV3.Document): Promise<ResourceModel> {
  return buildResourceModel(await loadSpec(source));
}

function roles(model: ResourceModel): string[] {
  return model.operations.map((o) => `${o.method} ${o.path} ${o.operationId}: ${o.role}`);
}

const error = {
  description: 'An error.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
      },
    },
  },
} as const;

function json(schema: object, description = 'An answer.'): OpenAPIV3.ResponseObject {
  return { description, content: { 'application/json': { schema } } };
}

/** A small document for one rule: the paths given, no security. */
function documentWith(paths: Record<string, object>): OpenAPIV3.Document {
  return { openapi: '3.0.3', info: { title: 'test', version: '1' }, paths: paths };
}

describe('buildResourceModel on the v1 document', () => {
  it('finds pets with its three roles, the id by convention, the status filter and limit 1..100 default 20', async () => {
    const model = await modelOf();
    expect(roles(model)).toEqual([
      'get /pets listPets: list',
      'post /pets createPet: create',
      'get /pets/{petId} getPet: read',
    ]);
    expect(model.collections).toHaveLength(1);
    const pets = model.collections[0]!;
    expect(pets).toMatchObject({
      name: 'pets',
      path: '/pets',
      itemPath: '/pets/{petId}',
      itemParameter: 'petId',
      parent: undefined,
      id: { property: 'id', kind: 'int64', source: 'convention', clientSends: false, takenStatus: 400 },
      itemProperties: ['name', 'categoryId', 'status', 'id'],
      assigned: [],
      filters: [{ parameter: 'status', property: 'status', many: false }],
      limit: { parameter: 'limit', minimum: 1, maximum: 100, default: 20 },
      ignoredParameters: [],
    });
    expect(Object.keys(pets.operations)).toEqual(['list', 'create', 'read']);
    expect(pets.operations.create).toMatchObject({
      operationId: 'createPet',
      request: { required: true, mediaType: 'application/json', properties: ['name', 'categoryId', 'status'] },
      success: { status: 201, declared: '201', mediaType: 'application/json', headers: [] },
      notFound: undefined,
      statuses: ['201', '400', '401'],
    });
    expect(pets.operations.read).toMatchObject({
      success: { status: 200, declared: '200' },
      notFound: { status: 404, declared: '404', mediaType: 'application/json' },
    });
  });

  it('is plain data: it survives a JSON round trip unchanged', async () => {
    const model = await modelOf();
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
  });
});

describe('buildResourceModel on a v1.1 document (test/fixtures/documents/petstore-v1.1.yaml)', () => {
  it('gives every operation its role, and names the one that fits none', async () => {
    const model = await modelOf(v11File);
    expect(roles(model)).toEqual([
      'get /pets listPets: list',
      'post /pets createPet: create',
      'get /pets/{petId} getPet: read',
      'put /pets/{petId} replacePet: replace',
      'delete /pets/{petId} deletePet: delete',
      'patch /pets/{petId} updatePet: merge',
      'get /pets/{petId}/photos listPetPhotos: list',
      'post /pets/{petId}/photos addPetPhoto: create',
      'get /pets/{petId}/photos/{photoId} getPetPhoto: read',
      'delete /pets/{petId}/photos/{photoId} deletePetPhoto: delete',
      'get /store/orders listOrders: list',
      'post /store/orders placeOrder: create',
      'get /store/orders/{orderId} getOrder: read',
      'delete /store/orders/{orderId} deleteOrder: delete',
      'get /store/inventory getInventory: none',
    ]);
    expect(model.operations.at(-1)!.reason).toBe(
      '/store/inventory is no collection: no item path /store/inventory/{…} and no POST beside a GET answering an array',
    );
    expect(model.collections.map((c) => c.name)).toEqual(['pets', 'store/orders', 'pets/photos']);
  });

  it('reads the new field as a filter, PATCH as a merge patch, DELETE as 204 and the Location of a 201', async () => {
    const pets = (await modelOf(v11File)).collections[0]!;
    expect(pets.filters.map((f) => f.parameter)).toEqual(['status', 'tag']);
    expect(pets.itemProperties).toEqual(['name', 'categoryId', 'status', 'tag', 'id']);
    expect(pets.operations.create!.success.headers).toEqual(['Location']);
    expect(pets.operations.replace).toMatchObject({
      operationId: 'replacePet',
      request: { mediaType: 'application/json', properties: ['name', 'categoryId', 'status', 'tag'] },
      success: { status: 200 },
      notFound: { status: 404, declared: '404' },
    });
    expect(pets.operations.merge).toMatchObject({
      operationId: 'updatePet',
      patchFormats: [{ format: 'merge-patch', mediaType: 'application/merge-patch+json' }],
      request: { mediaType: 'application/merge-patch+json', properties: ['name', 'categoryId', 'status', 'tag'] },
    });
    expect(pets.operations.delete).toMatchObject({
      success: { status: 204, declared: '204', mediaType: undefined, schema: undefined },
      notFound: { status: 404 },
    });
  });

  it('gives the second collection its own id and assigned readOnly field, and ignores a query that is no filter', async () => {
    const orders = (await modelOf(v11File)).collections.find((c) => c.name === 'store/orders')!;
    expect(orders).toMatchObject({
      path: '/store/orders',
      itemPath: '/store/orders/{orderId}',
      itemParameter: 'orderId',
      parent: undefined,
      id: { property: 'id', kind: 'int64', source: 'convention' },
      assigned: ['placedAt'],
      filters: [{ parameter: 'status', property: 'status', many: false }],
      limit: undefined,
      ignoredParameters: [{ parameter: 'sort', reason: 'named like no property of the item, so it is not a filter' }],
    });
  });

  it('links the nested collection to its parent, by the parameter and the property named like it', async () => {
    const photos = (await modelOf(v11File)).collections.find((c) => c.name === 'pets/photos')!;
    expect(photos).toMatchObject({
      path: '/pets/{petId}/photos',
      itemPath: '/pets/{petId}/photos/{photoId}',
      itemParameter: 'photoId',
      parent: { collection: 'pets', parameter: 'petId', property: 'petId' },
      id: { property: 'id', kind: 'int64' },
      assigned: [],
      limit: { parameter: 'limit', minimum: 1, maximum: 10, default: 5 },
    });
    expect(photos.operations.create!.notFound).toMatchObject({ status: 404, declared: '404' });
  });
});

describe('buildResourceModel rules, one document each', () => {
  const thing = {
    type: 'object',
    required: ['id', 'label'],
    properties: { id: { type: 'string', format: 'uuid', readOnly: true }, label: { type: 'string' } },
  };
  const newThing = { type: 'object', required: ['label'], properties: { label: { type: 'string' } } };

  it.each([
    ['a path parameter named id, a UUID id', { type: 'string', format: 'uuid' }, 'id', 'uuid'],
    ['a path parameter named id, a string id', { type: 'string' }, 'id', 'string'],
    ['thingId, an int64 id', { type: 'integer', format: 'int64' }, 'thingId', 'int64'],
  ])('%s', async (_name, idSchema, parameter, kind) => {
    const model = await modelOf(
      documentWith({
        '/things': {
          post: {
            requestBody: { required: true, content: { 'application/json': { schema: newThing } } },
            responses: { '201': json({ ...thing, properties: { ...thing.properties, id: idSchema } }) },
          },
        },
        [`/things/{${parameter}}`]: {
          get: {
            parameters: [{ name: parameter, in: 'path', required: true, schema: idSchema }],
            responses: {
              '200': json({ ...thing, properties: { ...thing.properties, id: idSchema } }),
              '404': error,
            },
          },
        },
      }),
    );
    expect(model.collections[0]!.id).toEqual({
      property: 'id',
      kind,
      source: 'convention',
      clientSends: false,
      takenStatus: 409,
    });
    expect(roles(model)).toEqual([
      `post /things post /things: create`,
      `get /things/{${parameter}} get /things/{${parameter}}: read`,
    ]);
  });

  it('takes the id from x-petstore-kit-id where the convention fails, and refuses one the schema lacks', async () => {
    const code = {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string' }, label: { type: 'string' } },
    };
    const paths = (extension: string): Record<string, object> => ({
      '/colours': { get: { responses: { '200': json({ type: 'array', items: code }) } } },
      '/colours/{slug}': {
        'x-petstore-kit-id': extension,
        get: {
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': json(code) },
        },
      },
    });
    const model = await modelOf(documentWith(paths('code')));
    expect(model.collections[0]!.id).toEqual({
      property: 'code',
      kind: 'string',
      source: 'extension',
      clientSends: false,
      takenStatus: 409,
    });
    await expect(modelOf(documentWith(paths('colour')))).rejects.toThrow(
      new DocumentError(
        'the OpenAPI document: paths./colours/{slug}.x-petstore-kit-id names "colour", which the item schema of /colours does not declare (it declares code, label)',
      ),
    );
  });

  it('names a collection without an id property as none, with the extension to use', async () => {
    const code = { type: 'object', properties: { code: { type: 'string' } } };
    const model = await modelOf(
      documentWith({
        '/colours/{slug}': {
          get: {
            parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': json(code) },
          },
        },
      }),
    );
    expect(model.collections).toEqual([]);
    expect(model.operations[0]).toMatchObject({
      role: 'none',
      reason: 'its item schema declares none of "slug" to hold the id; name the property with x-petstore-kit-id',
    });
  });

  it('keeps the role of an operation whose operationId is renamed, and gives none to what fits no role', async () => {
    const pet = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } },
    };
    const petId = [{ name: 'petId', in: 'path' as const, required: true, schema: { type: 'integer' } }];
    const model = await modelOf(
      documentWith({
        '/pets': {
          get: { operationId: 'browseAnimals', responses: { '200': json({ type: 'array', items: pet }) } },
          put: { operationId: 'replaceAll', responses: { '204': { description: 'done' } } },
        },
        '/pets/{petId}': {
          get: { operationId: 'fetchAnimal', parameters: petId, responses: { '200': json(pet) } },
          post: { operationId: 'vaccinate', parameters: petId, responses: { '200': json(pet) } },
          patch: {
            operationId: 'editAnimal',
            parameters: petId,
            requestBody: { content: { 'text/plain': { schema: { type: 'string' } } } },
            responses: { '200': json(pet) },
          },
          delete: {
            operationId: 'optOut',
            'x-petstore-kit-role': 'none',
            parameters: petId,
            responses: { '204': { description: 'gone' } },
          } as OpenAPIV3.OperationObject,
        },
        '/pets/{petId}/vaccinate': {
          post: { operationId: 'vaccinateToo', parameters: petId, responses: { '204': { description: 'done' } } },
        },
        '/owners/{ownerId}/pets': {
          get: {
            operationId: 'ownersPets',
            parameters: [{ name: 'ownerId', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: { '200': json({ type: 'array', items: pet }) },
          },
        },
        '/owners/{ownerId}/pets/{petId}': {
          get: {
            operationId: 'ownersPet',
            parameters: [{ name: 'ownerId', in: 'path', required: true, schema: { type: 'integer' } }, ...petId],
            responses: { '200': json(pet) },
          },
        },
      }),
    );
    expect(model.operations.map((o) => [o.operationId, o.role, o.role === 'none' ? o.reason : o.collection])).toEqual([
      ['browseAnimals', 'list', 'pets'],
      ['replaceAll', 'none', 'PUT on a collection has no role (POST creates, GET lists)'],
      ['fetchAnimal', 'read', 'pets'],
      ['vaccinate', 'none', 'POST on an item has no role (GET reads, PUT replaces, PATCH merges, DELETE deletes)'],
      ['optOut', 'none', 'x-petstore-kit-role: none'],
      [
        'editAnimal',
        'none',
        'PATCH /pets/{petId} takes neither application/merge-patch+json, application/json-patch+json nor application/json',
      ],
      [
        'vaccinateToo',
        'none',
        '/pets/{petId}/vaccinate is no collection: no item path /pets/{petId}/vaccinate/{…} and no POST beside a GET answering an array',
      ],
      [
        'ownersPets',
        'none',
        '/owners/{ownerId}/pets sits under /owners/{ownerId}, which is the item path of no collection',
      ],
      [
        'ownersPet',
        'none',
        '/owners/{ownerId}/pets sits under /owners/{ownerId}, which is the item path of no collection',
      ],
    ]);
  });

  it('reads a JSON Patch PATCH and a plain JSON PATCH, and a list wrapped in an object by its one array of items', async () => {
    // A $ref is the very object it names once loaded (the loader of issue 52); an inline object written twice is two.
    const pet = { $ref: '#/components/schemas/Pet' };
    const petId = [{ name: 'petId', in: 'path' as const, required: true, schema: { type: 'integer' } }];
    const model = await modelOf({
      ...documentWith({
        '/pets': {
          get: { responses: { '200': json({ type: 'object', properties: { items: { type: 'array', items: pet } } }) } },
        },
        '/pets/{petId}': {
          patch: {
            parameters: petId,
            requestBody: {
              content: {
                'application/json-patch+json': { schema: { type: 'array', items: { type: 'object' } } },
                'application/json': { schema: { type: 'object' } },
              },
            },
            responses: { '200': json(pet) },
          },
        },
      }),
      components: {
        schemas: { Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
      },
    });
    const pets = model.collections[0]!;
    expect(pets.operations.merge!.patchFormats).toEqual([
      { format: 'json-patch', mediaType: 'application/json-patch+json' },
      { format: 'merge-patch', mediaType: 'application/json' },
    ]);
    expect(pets.operations.merge!.request!.mediaType).toBe('application/json');
    expect(model.operations[0]).toMatchObject({ role: 'list', collection: 'pets' });
    expect(pets.operations.list!.wrapper).toBe('items');
  });

  // Train Travel (@readme/oas-examples 3.1): get-bookings answers allOf[Wrapper-Collection, {data: Booking[]}, {links}]
  // and get-booking allOf[Booking, {links}]; Wrapper-Collection's own `data` is an array of any object.
  it.for([
    ['an allOf of parts, the items an allOf part of the item read', 'data', 'list'],
    ['two array properties of the item', undefined, 'none'],
    ['an array of another schema', undefined, 'none'],
    ['a oneOf at the top', undefined, 'none'],
  ] as const)('a wrapped list: %s', async ([shape, wrapper, role]) => {
    const booking = { $ref: '#/components/schemas/Booking' };
    const read = { allOf: [booking, { properties: { links: { type: 'object' } } }] };
    const envelope = {
      type: 'object',
      properties: { data: { type: 'array', items: { type: 'object' } }, links: { type: 'object' } },
    };
    const listed: Record<string, object> = {
      'an allOf of parts, the items an allOf part of the item read': {
        allOf: [envelope, { properties: { data: { type: 'array', items: booking } } }, { properties: { links: {} } }],
      },
      'two array properties of the item': {
        type: 'object',
        properties: { data: { type: 'array', items: booking }, also: { type: 'array', items: booking } },
      },
      'an array of another schema': { allOf: [envelope] },
      'a oneOf at the top': { oneOf: [{ type: 'object', properties: { data: { type: 'array', items: booking } } }] },
    };
    const id = [{ name: 'bookingId', in: 'path' as const, required: true, schema: { type: 'string' } }];
    const model = await modelOf({
      ...documentWith({
        '/bookings': { get: { operationId: 'get-bookings', responses: { '200': json(listed[shape]!) } } },
        '/bookings/{bookingId}': {
          get: { operationId: 'get-booking', parameters: id, responses: { '200': json(read) } },
        },
      }),
      components: {
        schemas: { Booking: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } },
      },
    });
    expect(model.operations[0]!.role).toBe(role);
    expect(model.collections[0]!.operations.list?.wrapper).toBe(wrapper);
    if (role === 'none') expect(model.operations[0]!.reason).toMatch(/^its 200 answer is neither a JSON array/);
  });
});

describe('buildResourceModel: who names the id, and a GET on an item path that answers an array', () => {
  const item = (idSchema: object) => ({
    type: 'object',
    required: ['id', 'name'],
    properties: { id: idSchema, name: { type: 'string' } },
  });
  const petId = [{ name: 'petId', in: 'path' as const, required: true, schema: { type: 'integer' } }];
  const documentOf = (body: object, answer: object, statuses: string[]) =>
    documentWith({
      '/pets': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: body } } },
          responses: Object.fromEntries([['201', json(answer)], ...statuses.map((status) => [status, error])]),
        },
      },
      '/pets/{petId}': { get: { parameters: petId, responses: { '200': json(answer), '404': error } } },
    });
  const int = { type: 'integer', format: 'int64' };
  const readOnly = { ...int, readOnly: true };
  const newPet = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };

  it.each([
    ['the body declares the id: the client names it', item(int), item(int), ['400', '409'], true, 409],
    [
      'the body declares it, the create declares 400 and no 409: a taken one is a 400',
      item(int),
      item(int),
      ['400'],
      true,
      400,
    ],
    ['the body declares neither 400 nor 409: 409', item(int), item(int), [], true, 409],
    ['readOnly in the body: the mock assigns it', item(readOnly), item(int), ['400'], false, 400],
    ['readOnly in the item schema: the mock assigns it', item(int), item(readOnly), ['409'], false, 409],
    ['the body declares no id (v1): the mock assigns it', newPet, item(int), ['400'], false, 400],
  ])('%s', async (_name, body, answer, statuses, clientSends, takenStatus) => {
    const model = await modelOf(documentOf(body, answer, statuses));
    expect(model.collections[0]!.id).toMatchObject({ property: 'id', clientSends, takenStatus });
  });

  it('gives no role to a GET on /X/{param} answering an array, and no collection where nothing has a role', async () => {
    const repository = { type: 'object', properties: { slug: { type: 'string' } } };
    const model = await modelOf(
      documentWith({
        '/repositories/{username}': {
          get: {
            parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': json({ type: 'array', items: repository }) },
          },
        },
      }),
    );
    expect(model.collections).toEqual([]);
    expect(model.operations[0]).toMatchObject({
      role: 'none',
      collection: undefined,
      reason: 'its 200 answer is a JSON array, so it reads no one item',
    });
  });
});
