import { beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { Journal } from './journal.js';
import { loadSpec, type Spec } from '../openapi/load-spec.js';
import type { ServedRequest } from './observers.js';

let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});

function exchange(url: string, status: number, authorization?: string): ServedRequest {
  const headers = authorization === undefined ? {} : { authorization };
  return {
    request: { method: 'GET', url, headers, body: Readable.from([]), mountPath: '' },
    operation: spec.operationById.get('listPets'),
    reply: { status, headers: {}, payload: undefined, body: status === 200 ? [] : { code: 'x', message: 'y', status } },
    spec,
    durationMs: 1.234,
  };
}

describe('Journal', () => {
  it('wraps around many times and always holds the newest entries, in order', () => {
    const journal = new Journal(4);
    for (let i = 1; i <= 23; i++) journal.record(exchange(`/v1/pets?limit=${i}`, 200));
    expect(journal.size).toBe(4);
    expect(journal.entries().map((e) => e.seq)).toEqual([23, 22, 21, 20]);
    expect(journal.entries({ limit: 2 }).map((e) => e.query.limit)).toEqual(['23', '22']);
  });

  it('redacts credentials whatever their form, and judges each answer', () => {
    const journal = new Journal(10);
    journal.record(exchange('/v1/pets', 200, 'Bearer secret-key'));
    journal.record(exchange('/v1/pets', 401, 'secret-without-scheme'));
    journal.record(exchange('/v1/pets', 418));
    const [teapot, unauthorized, ok] = journal.entries();
    expect(ok!.requestHeaders.authorization).toBe('Bearer [redacted]');
    expect(unauthorized!.requestHeaders.authorization).toBe('[redacted]');
    expect(JSON.stringify(journal.entries())).not.toContain('secret');
    expect(ok!.validation).toEqual({ valid: true, violations: [] });
    // 418 is not documented for listPets, yet it is an Error whose status matches: checkResponse accepts it.
    expect(teapot!.validation!.valid).toBe(true);
    expect(teapot!.durationMs).toBe(1.23);
  });

  it('records nothing with capacity 0', () => {
    const journal = new Journal(0);
    journal.record(exchange('/v1/pets', 200));
    expect(journal.entries()).toEqual([]);
  });
});
