import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../openapi/load-spec.js';
import { operationPlans, type OperationPlan } from './operation-plan.js';

const documents = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/documents/${name}`, import.meta.url));

/** A plan in a line: the operation, then how it is addressed (the item's and parent's sources) or why not. */
function brief(plan: OperationPlan): [string, string] {
  if (plan.kind === 'unaddressed') return [plan.operationId, `not sent: ${plan.reason}`];
  if (plan.kind === 'examples') return [plan.operationId, `examples ${JSON.stringify(plan.values)}`];
  const above = [
    ...(plan.ancestors ?? []).map((a) => `${a.name} created`),
    ...(plan.parent ? [`parent ${plan.parent.from}`] : []),
  ];
  const what = plan.kind === 'action' ? `action on ${plan.collection.path}` : plan.role;
  return [plan.operationId, [what, `item ${plan.item.from}`, ...above].join(', ')];
}

describe('how each operation with a path parameter is addressed', () => {
  it('v1.1: items the run creates, photos under a pet it creates', async () => {
    const plans = operationPlans(await loadSpec(documents('petstore-v1.1.yaml'))).map(brief);
    expect(Object.fromEntries(plans)).toEqual({
      getPet: 'read, item created',
      replacePet: 'replace, item created',
      updatePet: 'merge, item created',
      deletePet: 'delete, item created',
      listPetPhotos: 'list, item none, parent created',
      addPetPhoto: 'create, item none, parent created',
      getPetPhoto: 'read, item created, parent created',
      deletePetPhoto: 'delete, item created, parent created',
      getOrder: 'read, item created',
      deleteOrder: 'delete, item created',
    });
  });

  it('shapes: a read-only collection read from its list, two levels down through both parents, and the reasons', async () => {
    const plans = Object.fromEntries(operationPlans(await loadSpec(documents('oracle-shapes.yaml'))).map(brief));
    expect(plans.getBreed).toBe('read, item listed');
    expect(plans.addSticker).toBe('create, item none, kennels created, parent created');
    expect(plans.getSticker).toBe('read, item created, kennels created, parent created');
    expect(plans.getShelter).toBe(
      'not sent: shelterId: the document declares no create and no list for /shelters and gives no example of shelterId',
    );
    expect(plans.addDog).toBe(
      'not sent: POST /shelters/{shelterId}/dogs writes to an item of /shelters, and the document declares no create for /shelters (a run writes only to items it made)',
    );
  });

  it("outside the resource model: the document's examples for a read, never for a write, and the missing one named", async () => {
    const spec = await loadSpec({
      openapi: '3.0.3',
      info: { title: 'links', version: '1' },
      paths: {
        '/users/{username}': {
          get: {
            operationId: 'getUser',
            parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' }, example: 'ada' }],
            responses: { '200': { description: 'A user.' } },
          },
        },
        '/repositories/{username}/{slug}': {
          parameters: [
            { name: 'username', in: 'path', required: true, schema: { type: 'string', enum: ['ada', 'bob'] } },
            { name: 'slug', in: 'path', required: true, schema: { type: 'string' } },
          ],
          get: { operationId: 'getRepository', responses: { '200': { description: 'A repository.' } } },
        },
        '/users/{username}/merge': {
          post: {
            operationId: 'mergeUser',
            parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string', default: 'ada' } }],
            responses: { '204': { description: 'Merged.' } },
          },
        },
      },
    });
    expect(Object.fromEntries(operationPlans(spec).map(brief))).toEqual({
      // /users/{username} is an item path: a collection of users with a read only, its items from the examples.
      getUser: 'read, item examples',
      getRepository: expect.stringMatching(/^not sent: slug: the document gives no example, enum or default for it/),
      // An action on a user (item-actions.ts), and users have no create: a write goes only to items the run made.
      mergeUser:
        'not sent: POST /users/{username}/merge writes to an item of /users, and the document declares no create for /users (a run writes only to items it made)',
    });
  });

  it('links: a chain whose first operation no request reaches is named, link by link', async () => {
    const user = {
      type: 'object' as const,
      properties: { username: { type: 'string' as const }, slug: { type: 'string' as const } },
    };
    const answer = (links: Record<string, OpenAPIV3.LinkObject>) => ({
      '200': { description: 'OK.', content: { 'application/json': { schema: user } }, links },
    });
    const spec = await loadSpec({
      openapi: '3.0.3',
      info: { title: 'links', version: '1' },
      paths: {
        '/users/{username}': {
          get: {
            operationId: 'getUserByName',
            parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }],
            responses: answer({
              userRepositories: {
                operationId: 'getRepository',
                parameters: { username: '$response.body#/username', slug: '$response.body#/slug' },
              },
            }),
          },
        },
        '/repositories/{username}/{slug}': {
          get: {
            operationId: 'getRepository',
            parameters: [
              { name: 'username', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'slug', in: 'path', required: true, schema: { type: 'string' } },
            ],
            responses: answer({}),
          },
        },
      },
    });
    expect(Object.fromEntries(operationPlans(spec).map(brief))).toEqual({
      getUserByName:
        'not sent: username: the document declares no create and no list for /users and gives no example of username',
      getRepository: expect.stringMatching(
        /^not sent: username, slug: the document gives no example, enum or default for them; the link userRepositories from getUserByName that gives them starts where no request reaches either/,
      ),
    });
  });
  it("actions on an item: sent to items the run makes, under the action's own names, or the reason", async () => {
    const pet = {
      type: 'object' as const,
      required: ['id', 'name'],
      properties: { id: { type: 'integer' as const }, name: { type: 'string' as const } },
    };
    const json = (schema: object) => ({ content: { 'application/json': { schema } } });
    const id = (name: string, extra: object = {}) => ({
      name,
      in: 'path' as const,
      required: true,
      schema: { type: 'integer' as const, ...extra },
    });
    const spec = await loadSpec({
      openapi: '3.0.3',
      info: { title: 'actions', version: '1' },
      paths: {
        '/pets': {
          post: {
            operationId: 'addPet',
            requestBody: json(pet),
            responses: { '201': { description: 'Made.', ...json(pet) } },
          },
        },
        '/pets/{petId}': {
          parameters: [id('petId')],
          get: { operationId: 'getPet', responses: { '200': { description: 'A pet.', ...json(pet) } } },
          post: { operationId: 'renamePet', responses: { '204': { description: 'Renamed.' } } },
        },
        '/pets/{id}/feed': {
          parameters: [id('id')],
          post: {
            operationId: 'feedPet',
            requestBody: json({ type: 'object' }),
            responses: { '204': { description: 'Fed.' } },
          },
        },
        '/pets/{petId}/photo': {
          parameters: [id('petId')],
          put: {
            operationId: 'uploadPhoto',
            requestBody: { required: true, content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
            responses: { '204': { description: 'Stored.' } },
          },
        },
        '/pets/{petId}/card': {
          get: {
            operationId: 'petCard',
            parameters: [id('petId', { example: 7 })],
            responses: { '200': { description: 'A card.' } },
          },
        },
        '/pets/{petId}/history': {
          parameters: [id('petId')],
          get: { operationId: 'petHistory', responses: { '200': { description: 'Its history.' } } },
        },
      },
    });
    const plans = operationPlans(spec);
    expect(Object.fromEntries(plans.map(brief))).toEqual({
      getPet: 'read, item created',
      // The item path itself, under a method with no role there.
      renamePet: 'action on /pets, item created',
      feedPet: 'action on /pets, item created',
      uploadPhoto:
        'not sent: PUT /pets/{petId}/photo requires a body of image/png, and the runner builds JSON bodies only',
      // A safe action keeps the document's examples where it gives them; without, it reads an item the run makes.
      petCard: 'examples {"petId":["7"]}',
      petHistory: 'action on /pets, item created',
    });
    // OpenAPI matches templates by place: /pets/{id}/feed acts on /pets/{petId}.
    expect(plans.find((plan) => plan.operationId === 'feedPet')).toMatchObject({ names: { petId: 'id' } });
  });

  it('Train Travel: the payment of a booking is an action on a booking the run makes', async () => {
    const spec = await loadSpec(
      fileURLToPath(new URL('../../../node_modules/@readme/oas-examples/3.1/yaml/train-travel.yaml', import.meta.url)),
    );
    const plans = Object.fromEntries(operationPlans(spec).map(brief));
    expect(plans['create-booking-payment']).toBe('action on /bookings, item created');
  });
});
