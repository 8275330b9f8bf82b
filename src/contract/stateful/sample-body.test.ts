import { describe, expect, it } from 'vitest';
import { createAjv } from '../../openapi/ajv.js';
import { sampleBody, sampleBodyOf } from './sample-body.js';
import { checkValue } from '../generate/schema-check.js';

const ajv = createAjv();

describe('sampleBody', () => {
  it.each([
    [
      'every declared field, enums by variant, readOnly left out',
      {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', maxLength: 10 },
          status: { type: 'string', enum: ['a', 'b'] },
          count: { type: 'integer', minimum: 5 },
          id: { type: 'integer', readOnly: true },
        },
      },
      { name: 'label-name', status: 'b', count: 6 },
    ],
    [
      'formats AJV checks, allOf merged',
      {
        allOf: [
          { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
          {
            type: 'object',
            properties: { link: { type: 'string', format: 'uri' }, on: { type: 'string', format: 'date' } },
          },
        ],
      },
      { at: '2026-01-02T03:04:05Z', link: 'https://example.com/label-link', on: '2026-01-02' },
    ],
  ])('%s', (_, schema, want) => {
    const body = sampleBody(schema, 'label', 1)!;
    expect(body).toEqual(want);
    expect(ajv.validate(schema, body), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('makes no body when a required field cannot be made, and says which keyword', () => {
    // Issue 53: a pattern and a oneOf are honoured now; these two have no value at all.
    const lookahead = { type: 'object', required: ['p'], properties: { p: { type: 'string', pattern: '^(?=y)x' } } };
    expect(sampleBody(lookahead, 'l')).toBeUndefined();
    expect(sampleBodyOf(lookahead, 'l')).toMatchObject({ ok: false, unhonoured: { keyword: 'pattern', at: '/p' } });
    const none = { oneOf: [{ type: 'object', required: ['a'], properties: { a: false } }] };
    expect(sampleBody(none, 'l')).toBeUndefined();
    expect(sampleBody({ type: 'array', items: { type: 'string' } }, 'l')).toBeUndefined();
  });

  it.each([
    [
      "Swagger Petstore 3's Pet: an array of strings, a nested object, a tag list, readOnly id left out",
      {
        type: 'object',
        required: ['name', 'photoUrls'],
        properties: {
          id: { type: 'integer', format: 'int64', readOnly: true },
          name: { type: 'string', example: 'doggie' },
          category: {
            type: 'object',
            properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } },
          },
          photoUrls: { type: 'array', items: { type: 'string' } },
          tags: {
            type: 'array',
            items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
          },
          status: { type: 'string', enum: ['available', 'pending', 'sold'] },
        },
      },
      {
        name: 'label-name',
        category: { id: 1, name: 'label-category-name' },
        photoUrls: ['label-photoUrls-0'],
        tags: [{ id: 1, name: 'label-tags-0-name' }],
        status: 'available',
      },
    ],
  ])('%s', (_, schema, want) => {
    const body = sampleBody(schema, 'label', 0)!;
    expect(body, JSON.stringify(sampleBodyOf(schema, 'label', 0))).toBeDefined();
    expect(body).toEqual(want);
    expect(ajv.validate(schema, body), JSON.stringify([body, ajv.errors])).toBe(true);
    expect(sampleBody(schema, 'label', 0)).toEqual(body);
  });

  it('a museum-like ticket: a 3.1 type array, a date, a const, a pattern, a oneOf whose discriminator maps its branches', () => {
    const card = {
      type: 'object',
      required: ['method', 'card'],
      properties: { method: { type: 'string' }, card: { type: 'string', minLength: 12 } },
    };
    const bank = {
      type: 'object',
      required: ['method', 'iban'],
      properties: { method: { type: 'string' }, iban: { type: 'string' } },
    };
    const ticket = {
      type: 'object',
      required: ['ticketType', 'eventDate', 'kind', 'code', 'payment'],
      properties: {
        ticketType: { type: 'string', enum: ['event', 'general'] },
        eventName: { type: ['string', 'null'], maxLength: 6 },
        eventDate: { type: 'string', format: 'date' },
        kind: { const: 'ticket' },
        code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
        payment: {
          oneOf: [card, bank],
          discriminator: {
            propertyName: 'method',
            mapping: { card: '#/components/schemas/Card', bank: '#/components/schemas/Bank' },
          },
        },
      },
    };
    const document = { components: { schemas: { Card: card, Bank: bank, Ticket: ticket } } };
    // Without the document the mapping names schemas the generator cannot find: said, not guessed.
    expect(sampleBodyOf(ticket, 'label')).toMatchObject({
      ok: false,
      unhonoured: { keyword: 'discriminator', at: '/payment' },
    });
    const body = sampleBody(ticket, 'label', 0, { document })!;
    expect(body).toMatchObject({
      ticketType: 'event',
      eventName: 'ntName',
      eventDate: '2026-01-02',
      kind: 'ticket',
      payment: { method: 'card' },
    });
    expect(body.code).toMatch(/^[A-Z]{3}-\d{4}$/);
    expect(checkValue(ticket, body).valid).toBe(true);
    expect(sampleBody(ticket, 'label', 1, { document })!.ticketType).toBe('general');
  });
});
