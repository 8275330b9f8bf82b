import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../openapi/load-spec.js';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import { declaresSelfLink, selfLinkOf } from './self-link.js';

const document = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const trainTravel = await loadSpec(document('../../../node_modules/@readme/oas-examples/3.1/yaml/train-travel.yaml'));
const petstore = await loadSpec(document('../../../openapi.yaml'));

function collection(spec: typeof petstore, name: string): ResourceCollection {
  return spec.resources.collections.find((c) => c.name === name)!;
}

/** Only a string `self` inside an object `links`: the registered relation under the name the document gives it. */
describe('selfLinkOf', () => {
  it.each([
    ['links.self', { id: 'a', links: { self: 'https://x/bookings/a' } }, 'https://x/bookings/a'],
    ['a relative links.self', { links: { self: '/bookings/a' } }, '/bookings/a'],
    ['no links', { id: 'a' }, undefined],
    ['links as a list', { links: [{ self: '/bookings/a' }] }, undefined],
    ['self as an object (HAL)', { links: { self: { href: '/bookings/a' } } }, undefined],
    ['_links (another convention)', { _links: { self: '/bookings/a' } }, undefined],
    ['a relation named otherwise', { links: { Self: '/bookings/a', next: '/bookings?page=2' } }, undefined],
    ['no object', '/bookings/a', undefined],
  ] as [string, unknown, string | undefined][])('%s', (_case, body, self) => {
    expect(selfLinkOf(body)).toBe(self);
  });
});

/** Where the answers declare links.self and the client does not write `links`. */
describe('declaresSelfLink', () => {
  it("reads Train Travel's bookings (Links-Self in the create's and the read's answers)", () => {
    expect(declaresSelfLink(collection(trainTravel, 'bookings'))).toBe(true);
  });

  it('reads no link in the Petstore interface, whose Pet declares none', () => {
    expect(declaresSelfLink(collection(petstore, 'pets'))).toBe(false);
  });

  it('leaves out a collection whose create body declares links: the client writes them, so they are its data', () => {
    const bookings = collection(trainTravel, 'bookings');
    const create = bookings.operations.create!;
    const writable = {
      ...bookings,
      operations: {
        ...bookings.operations,
        create: {
          ...create,
          request: {
            ...create.request!,
            schema: { allOf: [create.request!.schema, { properties: { links: { type: 'object' } } }] },
          },
        },
      },
    };
    expect(declaresSelfLink(writable)).toBe(false);
  });
});
