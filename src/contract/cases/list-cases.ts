import type { ContractCase } from '../engine/run-case.js';
import { taggedName } from '../base/session.js';
import { isSuccess, largestPage, petsOf, pluralPets, show, withinMaximum, type ListBounds } from '../engine/pets.js';

/** The first page, before the run writes anything: the sample later cases compare against. */
export function sampleCase(bounds: ListBounds): ContractCase {
  const { maximum } = bounds;
  const asked = maximum === undefined ? 'without limit' : `with limit=${maximum}`;
  return {
    id: 'list.limit/listPets/sample',
    check: 'list.limit',
    operation: 'listPets',
    title: `listPets ${asked} is accepted${maximum === undefined ? '' : ` and returns at most ${maximum} pets`}`,
    writes: false,
    async run(ctx) {
      const sent = await ctx.send({ operation: 'listPets', query: largestPage(bounds) });
      ctx.verify(
        'input.valid-accepted',
        sent,
        isSuccess(sent),
        `a 200 with the list (${maximum === undefined ? 'no parameter is required' : `limit=${maximum} is the documented maximum`})`,
      );
      const pets = petsOf(sent);
      if (!pets) return;
      const within =
        maximum === undefined ||
        ctx.verify('list.limit', sent, pets.length <= maximum, `at most ${maximum} pets`, pluralPets(pets.length));
      if (!within) {
        ctx.session.findings.brokenPremises.set('sample', 'the first list was wrong (see list.limit/listPets/sample)');
        return;
      }
      ctx.session.findings.sample = pets;
      ctx.session.findings.storeFloor = Math.max(ctx.session.findings.storeFloor, pets.length);
      const more = maximum !== undefined && pets.length >= maximum ? ' or more' : '';
      ctx.note('list.limit', `the target lists ${pets.length}${more} pets`);
    },
  };
}

function limitCase(limit: number): ContractCase {
  return {
    id: `list.limit/listPets/limit-${limit}`,
    check: 'list.limit',
    operation: 'listPets',
    title: `listPets with limit=${limit} returns at most ${pluralPets(limit)}, and ${limit} when more exist`,
    writes: false,
    async run(ctx) {
      const sent = await ctx.send({ operation: 'listPets', query: { limit: String(limit) } });
      ctx.verify('input.valid-accepted', sent, isSuccess(sent), `a 200 with the list (limit=${limit} is valid)`);
      const pets = petsOf(sent);
      if (!pets) return;
      // The store only grows during a run, so it holds at least storeFloor pets: a page shorter than that is short.
      const floor = Math.min(limit, ctx.session.findings.storeFloor);
      ctx.verify(
        'list.limit',
        sent,
        pets.length <= limit && pets.length >= floor,
        floor === limit
          ? `exactly ${pluralPets(limit)} (the store holds at least ${ctx.session.findings.storeFloor})`
          : `${floor} to ${limit} pets`,
        pluralPets(pets.length),
      );
    },
  };
}

/** limit's minimum and maximum are the documented bounds (v1: 1 and 100, interface §8); 7 is an ordinary value. */
export function limitCases(bounds: ListBounds): ContractCase[] {
  const limits = [Math.max(bounds.minimum ?? 1, 1), 7, ...(bounds.maximum === undefined ? [] : [bounds.maximum])];
  return [...new Set(limits)].filter((limit) => withinMaximum(bounds, limit)).map(limitCase);
}

/** listPets without `limit` holds the document's default when more pets exist; no case where it sets none. */
export function defaultLimitCases(bounds: ListBounds): ContractCase[] {
  return bounds.default === undefined ? [] : [defaultLimitCase(bounds.default)];
}

function defaultLimitCase(byDefault: number): ContractCase {
  return {
    id: 'list.default-limit/listPets',
    check: 'list.default-limit',
    operation: 'listPets',
    title: `listPets without limit returns ${byDefault} pets when more exist`,
    writes: false,
    async run(ctx) {
      const { session } = ctx;
      // With too few pets the default cannot show; a write run adds tagged pets until it can (at most 21).
      const missing = byDefault + 1 - session.findings.storeFloor;
      if (missing > 0 && !session.config.readOnly) {
        for (let i = 1; i <= missing; i++) {
          const filler = await ctx.send({
            operation: 'createPet',
            json: { name: taggedName(session, `filler-${i}`), categoryId: 1 },
          });
          if (isSuccess(filler)) session.findings.storeFloor++;
        }
      }
      const sent = await ctx.send({ operation: 'listPets' });
      ctx.verify('input.valid-accepted', sent, isSuccess(sent), 'a 200 with the list (no parameter is required)');
      const pets = petsOf(sent);
      if (!pets) return;
      if (session.findings.storeFloor <= byDefault) {
        ctx.verify(
          'list.default-limit',
          sent,
          pets.length <= byDefault,
          `at most ${byDefault} pets`,
          pluralPets(pets.length),
        );
        ctx.note(
          'list.default-limit',
          `could not verify that the default is ${byDefault}: the target shows only ${session.findings.storeFloor} pets${session.config.readOnly ? ' and a read-only run adds none' : ''}`,
        );
        return;
      }
      ctx.verify(
        'list.default-limit',
        sent,
        pets.length === byDefault,
        `${byDefault} pets (the store holds at least ${session.findings.storeFloor})`,
        pluralPets(pets.length),
      );
    },
  };
}

function statusFilterCase(status: string, bounds: ListBounds): ContractCase {
  return {
    id: `list.status-filter/listPets/${status}`,
    check: 'list.status-filter',
    operation: 'listPets',
    title: `listPets with status=${status} lists only ${status} pets`,
    writes: false,
    async run(ctx) {
      const sent = await ctx.send({ operation: 'listPets', query: { status, ...largestPage(bounds) } });
      ctx.verify(
        'input.valid-accepted',
        sent,
        isSuccess(sent),
        `a 200 with the list (status=${status} is a PetStatus)`,
      );
      const pets = petsOf(sent);
      if (!pets) return;
      const others = pets.filter((pet) => pet.status !== status);
      ctx.verify(
        'list.status-filter',
        sent,
        others.length === 0,
        `every pet with status "${status}"`,
        `${others.length} of ${pets.length} pets have another status, e.g. ${show(others.slice(0, 3))}`,
      );
      if (bounds.maximum !== undefined)
        ctx.verify(
          'list.limit',
          sent,
          pets.length <= bounds.maximum,
          `at most ${bounds.maximum} pets`,
          pluralPets(pets.length),
        );
    },
  };
}

/** One case per value of PetStatus, read from the document. */
export function statusFilterCases(statuses: string[], bounds: ListBounds): ContractCase[] {
  return statuses.map((status) => statusFilterCase(status, bounds));
}
