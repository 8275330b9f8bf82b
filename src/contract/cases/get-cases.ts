import type { ContractCase } from '../engine/run-case.js';
import { petOf, samePet, show } from '../engine/pets.js';

/** An int64 no real store reaches, and the largest id a JavaScript client reads exactly. */
export const UNKNOWN_PET_ID = Number.MAX_SAFE_INTEGER;

function returnsRequestedCase(which: 'first' | 'last'): ContractCase {
  return {
    id: `get.returns-requested/getPet/${which}`,
    check: 'get.returns-requested',
    operation: 'getPet',
    title: `getPet returns the ${which} listed pet as the list shows it`,
    writes: false,
    async run(ctx) {
      const { sample = [], created } = ctx.session.findings;
      const listed = (which === 'first' ? sample[0] : sample[sample.length - 1]) ?? created[0]?.pet;
      if (!listed)
        return ctx.skip(
          ctx.session.findings.brokenPremises.get('sample') ??
            (ctx.session.findings.sample === undefined
              ? 'the first list got no usable answer (see list.limit/listPets/sample)'
              : 'the target lists no pet, so there is none to fetch'),
        );
      const sent = await ctx.send({ operation: 'getPet', path: { petId: String(listed.id) } });
      const pet = petOf(sent);
      ctx.verify(
        'get.returns-requested',
        sent,
        sent.status === 200 && samePet(pet, listed),
        `200 with the pet as listed, ${show(listed)}`,
      );
    },
  };
}

export const getCases: ContractCase[] = [
  returnsRequestedCase('first'),
  returnsRequestedCase('last'),
  {
    id: 'get.not-found/getPet/unknown-id',
    check: 'get.not-found',
    operation: 'getPet',
    title: `getPet with an unknown id (${UNKNOWN_PET_ID}) gets 404`,
    writes: false,
    async run(ctx) {
      const sent = await ctx.send({ operation: 'getPet', path: { petId: UNKNOWN_PET_ID } });
      ctx.verify('get.not-found', sent, sent.status === 404, '404 with an Error');
    },
  },
];
