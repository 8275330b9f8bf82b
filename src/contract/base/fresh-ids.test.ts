import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createSession, type Session } from './session.js';
import { loadSpec } from '../../openapi/load-spec.js';
import { freshId, refusedAsTaken, withFreshId } from './fresh-ids.js';

const document = fileURLToPath(new URL('../../../test/fixtures/documents/client-named-ids.yaml', import.meta.url));
const v11 = fileURLToPath(new URL('../../../test/fixtures/documents/petstore-v1.1.yaml', import.meta.url));

let session: Session;
beforeAll(async () => {
  session = await createSession({
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'k',
    spec: await loadSpec(document),
    runId: 'r1',
  });
});
afterAll(() => session.dispatcher.close());

const collection = (name: string) => session.spec.resources.collections.find((c) => c.name === name)!;
const accepts = (operationId: string) => (body: unknown) =>
  session.spec.operationById.get(operationId)!.body!.validate!(body);

describe('fresh ids for client-named ids', () => {
  it('reads the document: animals, users and events name their ids; v1.1 pets do not', async () => {
    expect(['animals', 'users', 'events'].map((name) => collection(name).id.clientSends)).toEqual([true, true, true]);
    const other = await loadSpec(v11);
    expect(other.resources.collections.find((c) => c.name === 'pets')!.id.clientSends).toBe(false);
  });

  it('never gives one id twice in a run, each of the id kind, downwards in an int32 block', () => {
    const ints = Array.from({ length: 500 }, () => freshId(session, collection('animals')));
    expect(new Set(ints).size).toBe(500);
    expect(ints.every((id) => Number.isInteger(id) && (id as number) > 1_000_000_000 && (id as number) < 2 ** 31)).toBe(
      true,
    );
    // Downwards: a counter continuing above the highest id a client named never reaches the run's next one.
    expect(ints[1]! < ints[0]!).toBe(true);
    const uuids = Array.from({ length: 50 }, () => freshId(session, collection('events')));
    expect(new Set(uuids).size).toBe(50);
    expect(
      uuids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(String(id))),
    ).toBe(true);
    expect(freshId(session, collection('users'))).toMatch(/^contract-r1-id\d+$/);
  });

  it('replaces the id of a body that sends one, keeps a body that sends none, and one the validator refuses', () => {
    const body = withFreshId(session, collection('animals'), { id: 1, name: 'Rex' }, accepts('createAnimal'));
    expect(body.id).not.toBe(1);
    expect(body.name).toBe('Rex');
    expect(withFreshId(session, collection('animals'), { name: 'Rex' }, accepts('createAnimal'))).toEqual({
      name: 'Rex',
    });
    expect(withFreshId(session, collection('animals'), { id: 1, name: 'Rex' }, () => false)).toEqual({
      id: 1,
      name: 'Rex',
    });
  });

  it('takes a 409 or 400 for a server right only when a read finds the id named', async () => {
    const found = async () => ({ status: 200 });
    const none = async () => ({ status: 404 });
    const animals = collection('animals');
    expect(await refusedAsTaken(animals, { id: 7, name: 'a' }, 409, found)).toBe(true);
    expect(await refusedAsTaken(animals, { id: 7, name: 'a' }, 400, found)).toBe(true);
    expect(await refusedAsTaken(animals, { id: 7, name: 'a' }, 409, none)).toBe(false);
    expect(await refusedAsTaken(animals, { id: 7, name: 'a' }, 422, found)).toBe(false);
    expect(await refusedAsTaken(animals, { name: 'a' }, 409, found)).toBe(false);
  });
});
