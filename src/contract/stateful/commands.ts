import type { AsyncCommand } from '../generate/fast-check.js';
import type { Session } from '../base/session.js';
import type { Trial } from '../generate/run-property.js';
import { failure } from '../judge/judge-response.js';
import { INT64_MAX } from '../../json/int64.js';
import { taggedName } from '../base/session.js';
import { asParameter } from '../generate/request-schemas.js';
import { differenceFromPet, differenceFromSent, idKey, show } from '../generate/same-pet.js';
import { PetModel } from './pet-model.js';
import { askedBound } from '../engine/page-bounds.js';

/** What a command acts on: the sequence's trial (requests, failures), its session, and the settings it reads. */
export interface Real {
  trial: Trial;
  session: Session;
  /** The document's default limit; undefined where it declares none (no page size is then judged). */
  defaultLimit: number | undefined;
}

type Command = AsyncCommand<PetModel, Real, false>;

/** Ends the sequence at the first broken property: fast-check shrinks it to the shortest that still breaks. */
class Broken extends Error {}

function breakIf(real: Real): void {
  if (real.trial.failures.length > 0) throw new Broken(real.trial.failures[0]!.check);
}

/** createPet; the answer must be 201, echo the body exactly, and carry an id no pet of the sequence has. */
export class CreateCommand implements Command {
  constructor(readonly body: Record<string, unknown>) {}
  check(): boolean {
    return true;
  }
  async run(model: PetModel, real: Real): Promise<void> {
    await createAll(model, real, [this.body]);
  }
  toString(): string {
    return `create(${show(this.body.name)}, ${show(this.body.status)})`;
  }
}

/** createPet with the name of a pet the sequence already created (without its tag): still a new pet, a new id. */
export class CreateSameNameCommand implements Command {
  constructor(
    readonly pick: number,
    readonly body: Record<string, unknown>,
  ) {}
  check(model: Readonly<PetModel>): boolean {
    return model.pets.size > 0;
  }
  async run(model: PetModel, real: Real): Promise<void> {
    const pets = [...model.pets.values()];
    const tag = sequenceTag(real);
    const name = String(pets[this.pick % pets.length]!.name);
    await createAll(model, real, [{ ...this.body, name: name.startsWith(tag) ? name.slice(tag.length) : name }]);
  }
  toString(): string {
    return `createSameName(#${this.pick})`;
  }
}

/** Several createPet at once: each must succeed as alone, and no two may get the same id. */
export class CreateParallelCommand implements Command {
  constructor(readonly bodies: Record<string, unknown>[]) {}
  check(): boolean {
    return true;
  }
  async run(model: PetModel, real: Real): Promise<void> {
    await createAll(model, real, this.bodies);
  }
  toString(): string {
    return `createParallel(${this.bodies.length})`;
  }
}

/**
 * The tag of the sequence's names: the run's and the sequence's own (its place in the property), so that sequences
 * in flight side by side never share a name, and a sequence meets only the names it repeated itself, whatever the
 * concurrency.
 */
function sequenceTag(real: Real): string {
  return `${taggedName(real.session, `s${real.trial.example}`)}-`;
}

async function createAll(model: PetModel, real: Real, bodies: Record<string, unknown>[]): Promise<void> {
  const { trial } = real;
  // Names repeat on purpose (a small pool, one tag for the sequence): a repeated name must still make a new pet.
  const named = bodies.map((body) => ({ ...body, name: `${sequenceTag(real)}${String(body.name)}` }));
  const sent =
    named.length === 1
      ? [await trial.send({ operation: 'createPet', json: named[0] })]
      : await trial.sendAll(named.map((json) => ({ operation: 'createPet', json })));
  breakIf(real);
  const fresh = new Map<string, number>();
  sent.forEach((answer, index) => {
    if (answer.status !== 201)
      return trial.fail(failure('stateful.unique-ids', answer, '201 for a valid NewPet', `${answer.status}`));
    const pet = answer.body as Record<string, unknown>;
    const changed = differenceFromSent(named[index]!, pet);
    if (changed)
      return trial.fail(failure('generated.round-trip', answer, 'the created pet as sent, plus an id', changed));
    const key = idKey(pet.id);
    if (model.pets.has(key) || fresh.has(key)) {
      const other = model.pets.get(key) ?? named[fresh.get(key)!];
      return trial.fail(
        failure(
          'stateful.unique-ids',
          answer,
          'a new id for every created pet',
          `id ${key} was already given to ${show(other?.name)}${named.length > 1 ? ' (creates sent in parallel)' : ''}`,
        ),
      );
    }
    fresh.set(key, index);
  });
  breakIf(real);
  sent.forEach((answer) => model.add(answer.body as Record<string, unknown>));
}

/** getPet of a pet the sequence created: 200 and equal to its creation. */
export class GetCommand implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<PetModel>): boolean {
    return model.pets.size > 0;
  }
  async run(model: PetModel, real: Real): Promise<void> {
    const pets = [...model.pets.values()];
    const pet = pets[this.pick % pets.length]!;
    const got = await real.trial.send({ operation: 'getPet', path: { petId: asParameter(pet.id) } });
    breakIf(real);
    if (got.status !== 200)
      real.trial.fail(
        failure('stateful.get', got, `200 with pet ${idKey(pet.id)}, which this sequence created`, `${got.status}`),
      );
    else {
      const differs = differenceFromPet(pet, got.body as Record<string, unknown>);
      if (differs)
        real.trial.fail(failure('stateful.get', got, `pet ${idKey(pet.id)} as createPet answered it`, differs));
    }
    breakIf(real);
  }
  toString(): string {
    return `get(#${this.pick})`;
  }
}

/**
 * listPets with or without limit and status: at most `limit` (default 20) pets; only the status asked for; no id
 * twice; each of the sequence's pets it shows equal to its creation; and when shorter than its limit, complete: every
 * pet of the sequence with that status is in it.
 */
export class ListCommand implements Command {
  constructor(
    readonly limit: number | undefined,
    readonly status: string | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: PetModel, real: Real): Promise<void> {
    const { trial } = real;
    const query: Record<string, string> = {};
    if (this.limit !== undefined) query.limit = String(this.limit);
    if (this.status !== undefined) query.status = this.status;
    const sent = await trial.send({ operation: 'listPets', query });
    breakIf(real);
    if (sent.status !== 200) {
      trial.fail(failure('stateful.list', sent, '200 for a valid listPets query', `${sent.status}`));
      return breakIf(real);
    }
    const pets = sent.body as Record<string, unknown>[];
    for (const pet of pets) model.seen.add(idKey(pet.id));
    const limit = this.limit === undefined ? real.defaultLimit : askedBound(this.limit);
    const fail = (expected: string, actual: string) => trial.fail(failure('stateful.list', sent, expected, actual));
    const ids = pets.map((pet) => idKey(pet.id));
    const twice = ids.find((id, index) => ids.indexOf(id) !== index);
    const other = this.status === undefined ? undefined : pets.find((pet) => pet.status !== this.status);
    const differing = pets
      .map((pet) => [pet, model.pets.get(idKey(pet.id))] as const)
      .find(([pet, mine]) => mine && differenceFromPet(mine, pet));
    const missing =
      limit !== undefined && pets.length < limit
        ? model.matching(this.status).find((pet) => !ids.includes(idKey(pet.id)))
        : undefined;
    if (limit !== undefined && pets.length > limit)
      fail(
        `at most ${limit} pets${this.limit === undefined ? ' (the default limit)' : ''}${this.status ? ` with status=${this.status}` : ''}`,
        `${pets.length} pets`,
      );
    else if (twice !== undefined) fail('every id at most once in a list', `id ${twice} is listed twice`);
    else if (other)
      fail(`only pets with status "${this.status}"`, `pet ${idKey(other.id)} has status ${show(other.status)}`);
    else if (differing)
      fail(`pet ${idKey(differing[0].id)} as createPet answered it`, differenceFromPet(differing[1]!, differing[0])!);
    else if (missing)
      fail(
        `a list shorter than its limit (${pets.length} < ${limit}) to hold every pet that matches, pet ${idKey(missing.id)} included`,
        `pet ${idKey(missing.id)} (status ${show(missing.status)}) is not in it`,
      );
    breakIf(real);
  }
  toString(): string {
    return `list(limit=${this.limit ?? '-'}, status=${this.status ?? '-'})`;
  }
}

/** The kinds of id that name no pet. */
export type UnknownKind = 'between' | 'max-int64' | 'minus-one' | 'zero' | 'beyond-int64';

/**
 * getPet of an id that is not in the store: 404 with an Error for a positive int64 the store is known not to hold
 * (2^63−1, never seen; a gap between two ids of a complete list), any 4xx Error for −1, 0 and an id beyond int64
 * (the interface does not say whether those are malformed or unknown) — never a pet, never a 5xx.
 */
export class GetUnknownCommand implements Command {
  constructor(readonly kind: UnknownKind) {}
  check(): boolean {
    return true;
  }
  async run(model: PetModel, real: Real): Promise<void> {
    const { trial } = real;
    let id: bigint | number;
    // Whether the store is known to hold no pet with this id (then only 404 will do), or only likely not to.
    let known = true;
    if (this.kind === 'between') {
      // A list shorter than its limit holds every pet: a gap between two of its ids names none. On a fuller store
      // another page may hold it: then the answer must be 404 or that very pet, never another.
      const listed = await trial.send({ operation: 'listPets', query: { limit: '100' } });
      breakIf(real);
      if (listed.status !== 200) return;
      const pets = listed.body as { id: unknown }[];
      for (const pet of pets) model.seen.add(idKey(pet.id));
      known = pets.length < 100;
      const ids = pets.map((pet) => BigInt(idKey(pet.id))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const gap = ids.findIndex((value, index) => index > 0 && value - ids[index - 1]! > 1n);
      if (gap < 0) return;
      id = ids[gap - 1]! + 1n;
    } else {
      id =
        this.kind === 'max-int64'
          ? INT64_MAX
          : this.kind === 'minus-one'
            ? -1
            : this.kind === 'zero'
              ? 0
              : 10n ** 20n - 1n;
    }
    if (model.seen.has(String(id))) return;
    const sent = await trial.send({ operation: 'getPet', path: { petId: asParameter(id) } });
    breakIf(real);
    const strict = this.kind === 'between' || this.kind === 'max-int64';
    const itself =
      !known && sent.status === 200 && idKey((sent.body as { id?: unknown } | undefined)?.id) === String(id);
    const ok =
      itself || (strict ? sent.status === 404 : sent.status !== undefined && sent.status >= 400 && sent.status < 500);
    if (!ok) {
      const shown =
        sent.status === 200
          ? `200 with pet ${idKey((sent.body as { id?: unknown } | undefined)?.id)}`
          : `${sent.status}`;
      trial.fail(
        failure(
          'stateful.not-found',
          sent,
          known
            ? `${strict ? '404' : 'a 4xx'} with an Error for id ${String(id)}, which no pet has`
            : `404, or pet ${String(id)} itself, for id ${String(id)} (between two listed ids)`,
          shown,
        ),
      );
    }
    breakIf(real);
  }
  toString(): string {
    return `getUnknown(${this.kind})`;
  }
}

export { Broken };
