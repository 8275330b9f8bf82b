import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createSession } from '../base/session.js';
import { runCase } from '../engine/run-case.js';
import { loadSpec } from '../../openapi/load-spec.js';
import { coverageCase } from './coverage-case.js';

const v11 = fileURLToPath(new URL('../../../test/fixtures/documents/petstore-v1.1.yaml', import.meta.url));

describe('coverage.operation-status with --require-coverage', () => {
  it('fails naming first the operations no request reached, then every pair; each row with its role', async () => {
    const session = await createSession({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'k',
      spec: await loadSpec(v11),
      requireCoverage: true,
    });
    const exchange = {
      operation: 'listPets',
      method: 'GET',
      url: '',
      curl: '',
      validKey: true,
      status: 200,
      contentType: 'application/json',
      headers: {},
      body: [],
      text: '[]',
      excerpt: '[]',
      length: 2,
      problems: {},
      durationMs: 1,
    };
    session.findings.exchanges.push(exchange);
    try {
      const result = await runCase(session, coverageCase);
      expect(result.status).toBe('failed');
      expect(result.failures[0]!.actual).toMatch(
        /^never exercised: operations createPet, getPet, replacePet, deletePet, updatePet, listPetPhotos, addPetPhoto, getPetPhoto, deletePetPhoto, listOrders, placeOrder, getOrder, deleteOrder, getInventory not once; listPets 401, createPet 201, /,
      );
      expect(result.requests).toEqual([]);
      expect(
        result
          .coverage!.filter((row) => row.status === '200' || row.status === '204')
          .map((row) => `${row.operation} ${row.role ?? '-'}`),
      ).toEqual([
        'listPets list',
        'getPet read',
        'replacePet replace',
        'deletePet delete',
        'updatePet merge',
        'listPetPhotos list',
        'getPetPhoto read',
        'deletePetPhoto delete',
        'listOrders list',
        'getOrder read',
        'deleteOrder delete',
        'getInventory none',
      ]);
    } finally {
      await session.dispatcher.close();
    }
  });
});
