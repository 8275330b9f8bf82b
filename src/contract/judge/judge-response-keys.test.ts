import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../openapi/load-spec.js';
import { judgeResponse } from './judge-response.js';
import { exchangeFor } from '../../../test/support/contract-unit.js';

const spec = await loadSpec();

describe('judgeResponse, keys and checks only where they apply', () => {
  it('gives a failure with no answer no status key at all', () => {
    const [failure] = judgeResponse(spec, exchangeFor('listPets', undefined, undefined, { error: 'e' })).failures;
    expect(failure).not.toHaveProperty('status');
    expect(failure?.response).not.toHaveProperty('status');
  });

  it('compares the pet returned with the one asked for only on a 200', () => {
    const judged = judgeResponse(
      spec,
      exchangeFor('getPet', 404, { code: 'x', message: 'y', status: 404 }, { pathValues: { petId: '7' } }),
    );
    expect(judged.failures).toEqual([]);
    expect(judged.evaluated).not.toContain('get.returns-requested');
  });
});
