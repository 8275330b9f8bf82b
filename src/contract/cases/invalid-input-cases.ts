import type { ContractCase } from '../engine/run-case.js';
import { taggedName } from '../base/session.js';
import {
  errorSummary,
  isClientError,
  isSuccess,
  largestPage,
  mayBeCut,
  petsOf,
  withinMaximum,
  type ListBounds,
} from '../engine/pets.js';

/**
 * listPets declares no 400 (interface §7: handling of a bad `limit` or `status` is not shown), so a target may
 * reject with any 4xx Error or clamp; it may never answer 5xx or more than 100 pets. The note says which it chose.
 */
const listInputs: [string, Record<string, string>][] = [
  ['limit-0', { limit: '0' }],
  ['limit-101', { limit: '101' }],
  ['limit-500', { limit: '500' }],
  ['limit-negative', { limit: '-1' }],
  ['limit-not-a-number', { limit: 'abc' }],
  ['limit-fraction', { limit: '1.5' }],
  ['status-unknown', { status: 'adopted' }],
];

function listCase(label: string, query: Record<string, string>, bounds: ListBounds): ContractCase {
  const shown = new URLSearchParams(query).toString();
  const most = bounds.maximum === undefined ? 'pets' : `at most ${bounds.maximum} pets`;
  return {
    id: `input.invalid-rejected/listPets/${label}`,
    check: 'input.invalid-rejected',
    operation: 'listPets',
    title: `listPets with ${shown} is rejected with a 4xx Error or ${bounds.maximum === undefined ? 'accepted' : `clamped, never more than ${bounds.maximum} pets`}`,
    writes: false,
    async run(ctx) {
      const sent = await ctx.send({ operation: 'listPets', query });
      const pets = petsOf(sent);
      if (isSuccess(sent) && pets) {
        ctx.verify(
          'input.invalid-rejected',
          sent,
          withinMaximum(bounds, pets.length),
          `a 4xx Error, or ${most}`,
          `${sent.status} with ${pets.length} pets`,
        );
        ctx.note(
          'input.invalid-rejected',
          `listPets ${shown}: accepted (clamped or ignored) with ${sent.status} and ${pets.length} pets`,
        );
        return;
      }
      if (ctx.verify('input.invalid-rejected', sent, isClientError(sent), `a 4xx Error, or a 200 with ${most}`)) {
        ctx.note('input.invalid-rejected', `listPets ${shown}: rejected with ${errorSummary(sent)}`);
      }
    },
  };
}

/** getPet declares 404 only; a non-integer id may get 400 or 404 (any 4xx Error), never a pet or a 5xx. */
function getCase(label: string, petId: string): ContractCase {
  return {
    id: `input.invalid-rejected/getPet/${label}`,
    check: 'input.invalid-rejected',
    operation: 'getPet',
    title: `getPet with the non-integer id "${petId}" gets a 4xx Error`,
    writes: false,
    async run(ctx) {
      const sent = await ctx.send({ operation: 'getPet', path: { petId } });
      if (
        ctx.verify(
          'input.invalid-rejected',
          sent,
          isClientError(sent),
          'a 4xx Error (404 or 400): no pet can have that id',
        )
      ) {
        ctx.note('input.invalid-rejected', `getPet ${petId}: rejected with ${errorSummary(sent)}`);
      }
    },
  };
}

/** Bodies createPet must reject with its declared 400 (interface §4.2). Named ones are run-tagged. */
const createInputs: [string, (name: string) => unknown][] = [
  ['empty-object', () => ({})],
  ['missing-name', () => ({ categoryId: 1 })],
  ['missing-categoryId', (name) => ({ name })],
  ['name-number', () => ({ name: 42, categoryId: 1 })],
  ['name-null', () => ({ name: null, categoryId: 1 })],
  ['categoryId-string', (name) => ({ name, categoryId: '1' })],
  ['categoryId-fraction', (name) => ({ name, categoryId: 1.5 })],
  ['status-unknown', (name) => ({ name, categoryId: 1, status: 'adopted' })],
  ['array', (name) => [{ name, categoryId: 1 }]],
];

function createCase(label: string, body: ((name: string) => unknown) | string): ContractCase {
  return {
    id: `input.invalid-rejected/createPet/${label}`,
    check: 'input.invalid-rejected',
    operation: 'createPet',
    title: `createPet with a bad body (${label}) gets 400`,
    writes: true,
    async run(ctx) {
      const name = taggedName(ctx.session, `rejected-${label}`);
      ctx.session.findings.rejectedNames.push(name);
      const sent = await ctx.send(
        typeof body === 'string'
          ? { operation: 'createPet', rawBody: body.replace('NAME', name) }
          : { operation: 'createPet', json: body(name) },
      );
      if (
        ctx.verify('input.invalid-rejected', sent, sent.status === 400, '400 with an Error (declared for createPet)')
      ) {
        ctx.note('input.invalid-rejected', `createPet ${label}: rejected with ${errorSummary(sent)}`);
      }
    },
  };
}

function nothingStoredCase(bounds: ListBounds): ContractCase {
  return {
    id: 'input.invalid-rejected/createPet/nothing-stored',
    check: 'input.invalid-rejected',
    operation: 'createPet',
    title: 'createPet stored none of the bodies it had to reject',
    writes: true,
    async run(ctx) {
      const { rejectedNames } = ctx.session.findings;
      if (rejectedNames.length === 0) return ctx.skip('no bad body was sent');
      // An absence proves nothing about a target that keeps nothing: it must first be seen to store a pet it was sent.
      if (!ctx.session.findings.storesPets)
        return ctx.skip(
          'the target was not shown to store pets at all (no pet this run created was found again), so an absent rejected body proves nothing',
        );
      const sent = await ctx.send({ operation: 'listPets', query: largestPage(bounds) });
      const pets = petsOf(sent);
      if (!pets) return;
      const stored = pets.filter((pet) => rejectedNames.includes(pet.name));
      ctx.verify(
        'input.invalid-rejected',
        sent,
        stored.length === 0,
        'no pet from a rejected body in the list',
        `listed: ${stored.map((p) => `${p.id} ${p.name}`).join(', ')}`,
      );
      if (stored.length === 0 && mayBeCut(bounds, pets.length)) {
        ctx.note(
          'input.invalid-rejected',
          `could check only the first ${pets.length} listed pets for bodies createPet had to reject`,
        );
      }
    },
  };
}

export function invalidInputCases(bounds: ListBounds): ContractCase[] {
  return [
    ...listInputs.map(([label, query]) => listCase(label, query, bounds)),
    getCase('not-an-integer', 'abc'),
    getCase('fraction', '1.5'),
    ...createInputs.map(([label, body]) => createCase(label, body)),
    createCase('not-json', '{"name": "NAME", "categoryId": '),
    nothingStoredCase(bounds),
  ];
}
