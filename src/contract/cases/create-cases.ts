import type { StoredNewPet as NewPet } from '../../types.js';
import type { ContractCase } from '../engine/run-case.js';
import { taggedName } from '../base/session.js';
import { isSuccess, largestPage, mayBeCut, petOf, petsOf, samePet, show, type ListBounds } from '../engine/pets.js';

/** A NewPet with each status, and one without (interface §2: status is optional, no default is stated). */
export function createCases(statuses: string[], bounds: ListBounds): ContractCase[] {
  const variants: [string, string | undefined][] = [
    ...statuses.map((s): [string, string] => [`status-${s}`, s]),
    ['no-status', undefined],
  ];
  return variants.flatMap(([label, status], index) => [
    createCase(label, status, index + 1),
    persistedCase(label, bounds),
  ]);
}

function createCase(label: string, status: string | undefined, categoryId: number): ContractCase {
  return {
    id: `create.echo/createPet/${label}`,
    check: 'create.echo',
    operation: 'createPet',
    title: `createPet with a NewPet ${status ? `with status "${status}"` : 'without status'} answers the pet with a new id`,
    writes: true,
    async run(ctx) {
      const { session } = ctx;
      const sentPet = { name: taggedName(session, label), categoryId, ...(status ? { status } : {}) } as NewPet;
      const sent = await ctx.send({ operation: 'createPet', json: sentPet });
      ctx.verify('input.valid-accepted', sent, isSuccess(sent), 'a 201 with the created pet');
      const pet = petOf(sent);
      if (!pet || !isSuccess(sent)) return;
      const echoed = Object.entries(sentPet).every(
        ([key, value]) => (pet as unknown as Record<string, unknown>)[key] === value,
      );
      const echoOk = ctx.verify(
        'create.echo',
        sent,
        echoed,
        `the fields sent, ${show(sentPet)}, plus an id`,
        show(pet),
      );
      const seen = new Set([
        ...(session.findings.sample ?? []).map((p) => p.id),
        ...session.findings.created.map((c) => c.pet.id),
      ]);
      const idOk = ctx.verify(
        'create.echo',
        sent,
        !seen.has(pet.id),
        'an id no other pet has',
        `id ${pet.id}, which a pet listed or created before already had`,
      );
      if (!status && pet.status !== undefined)
        ctx.note('create.echo', `a pet created without status was given status "${pet.status}"`);
      session.findings.storeFloor++;
      // Later cases build on this pet only when the answer was right: a wrong one is no premise to query with.
      if (echoOk && idOk) session.findings.created.push({ label, sent: sentPet, pet });
      else
        session.findings.brokenPremises.set(
          label,
          `createPet answered a wrong pet for "${label}" (see create.echo/createPet/${label})`,
        );
    },
  };
}

function persistedCase(label: string, bounds: ListBounds): ContractCase {
  return {
    id: `create.persisted/createPet/${label}`,
    check: 'create.persisted',
    operation: 'createPet',
    title: `the pet created ${label === 'no-status' ? 'without status' : `with ${label.replace('-', ' ')}`} is returned by getPet and appears in the list`,
    writes: true,
    async run(ctx) {
      const created = ctx.session.findings.created.find((c) => c.label === label);
      if (!created)
        return ctx.skip(
          ctx.session.findings.brokenPremises.get(label) ??
            `createPet did not create the pet "${label}" (see create.echo/createPet/${label})`,
        );
      const { pet } = created;
      const got = await ctx.send({ operation: 'getPet', path: { petId: String(pet.id) } });
      const fetched = petOf(got);
      if (got.status === 200 && samePet(fetched, pet)) ctx.session.findings.storesPets = true;
      if (got.status === 200 && fetched && fetched.id !== pet.id) {
        ctx.verify(
          'get.returns-requested',
          got,
          false,
          `the pet with id ${pet.id}`,
          `the pet with id ${show(fetched.id)}`,
        );
      } else {
        ctx.verify(
          'create.persisted',
          got,
          got.status === 200 && samePet(fetched, pet),
          `200 with the pet as created, ${show(pet)}`,
        );
      }
      // Look where the pet must be: the list filtered by its status (or the whole list), its largest page.
      const query: Record<string, string> = largestPage(bounds);
      if (pet.status !== undefined) query.status = pet.status;
      const listed = await ctx.send({ operation: 'listPets', query });
      const pets = petsOf(listed);
      if (!pets) return;
      if (pet.status === undefined)
        ctx.session.findings.storeFloor = Math.max(ctx.session.findings.storeFloor, pets.length);
      const found = pets.find((p) => p.id === pet.id);
      if (found && samePet(found, pet)) ctx.session.findings.storesPets = true;
      if (found) {
        ctx.verify(
          'create.persisted',
          listed,
          samePet(found, pet),
          `the list to show the pet as created, ${show(pet)}`,
          show(found),
        );
      } else if (mayBeCut(bounds, pets.length)) {
        // The interface shows no paging (§4.1): a pet beyond the first page cannot be seen, which is no violation.
        ctx.note(
          'create.persisted',
          `could not verify that pet ${pet.id} is listed: the first page of ${pets.length} pets does not show it and the interface shows no paging`,
        );
      } else {
        ctx.verify(
          'create.persisted',
          listed,
          false,
          `pet ${pet.id} among the listed pets`,
          `not among the ${pets.length} pets listed`,
        );
      }
    },
  };
}
