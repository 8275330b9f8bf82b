import { beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Journal, MAX_KEPT_REPLY } from './journal.js';
import { loadSpec, type Spec } from '../../openapi/load-spec.js';
import type { ServedRequest } from '../front-door/observers.js';

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

describe('Journal: large answers relayed by the proxy', () => {
  function relayed(bytes: Buffer): ServedRequest {
    const served = exchange('/v1/pets?limit=100', 200);
    return {
      ...served,
      reply: { status: 200, headers: { 'Content-Type': 'application/json' }, bytes, payload: bytes },
    };
  }
  // A list of `count` pets, the last without its name: a schema violation only a judge reading the whole body finds.
  const list = (count: number) =>
    Buffer.from(
      JSON.stringify([
        ...Array.from({ length: count - 1 }, (_, i) => ({
          id: i + 1,
          name: `Pet ${i + 1} ${'x'.repeat(40)}`,
          categoryId: 1,
        })),
        { id: count, categoryId: 1 },
      ]),
    );

  it('judges a large answer as it is recorded, the whole body, and keeps no bytes of it', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const body = list(20_000);
    expect(body.length).toBeGreaterThan(MAX_KEPT_REPLY);
    const journal = new Journal(1000);
    gc();
    const before = process.memoryUsage().arrayBuffers;
    // 200 answers of about a megabyte each, every one its own buffer.
    for (let i = 0; i < 200; i++) journal.record(relayed(Buffer.from(body)));
    gc();
    const held = process.memoryUsage().arrayBuffers - before;
    expect(held).toBeLessThan(20 * body.length);
    const [entry] = journal.entries({ limit: 1 });
    expect(entry!.validation?.valid).toBe(false);
    expect(entry!.validation?.violations.map((v) => v.path)).toEqual(['response[19999].name']);
  });

  it('keeps a small relayed answer and judges it when the journal is read', () => {
    const journal = new Journal(10);
    journal.record(relayed(list(3)));
    expect(journal.entries()[0]!.validation).toMatchObject({
      valid: false,
      violations: [{ path: 'response[2].name' }],
    });
  });
});
