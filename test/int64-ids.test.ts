import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { petstoreHandlers } from '../src/msw/index.js';
import { createPetstoreFetch } from '../src/fetch/index.js';
import { parseJson } from '../src/json/parse-json.js';
import { startApi } from './support/api.js';
import { startCli } from './support/cli.js';
import { describeRedis, startRedisServer, type RedisServer } from './support/redis-server.js';
import { tempDirs } from './support/temp-dirs.js';

// Ids across the safe-integer edge (2^53) and at the end of int64 (2^63 − 1), over HTTP and in-process, in every
// store: the 201 body, the Location, GET /pets/{petId} and the list carry exactly the digits, and what a 201
// acknowledged survives kill -9 (the journal) and a clean stop (the state file).
const tmp = tempDirs('petstore-int64-ids-');
const KEY = 'int64-ids-key-7c2a';
const TWO_53 = '9007199254740992';
const TWO_53_PLUS_1 = '9007199254740993';
const TWO_63_MINUS_2 = '9223372036854775806';
const TWO_63_MINUS_1 = '9223372036854775807';
const TWO_63 = '9223372036854775808';

/** One HTTP exchange against a base URL, the body kept as text (a JSON.parse would round the ids). */
type Send = (
  method: string,
  path: string,
  body?: string,
) => Promise<{ status: number; text: string; headers: Headers }>;

function sender(base: string, fetchFn: typeof fetch = fetch): Send {
  return async (method, path, body) => {
    const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetchFn(`${base}${path}`, { method, headers, body });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };
}

/** The ids of a list reply, as digits. */
function idsOf(text: string): string[] {
  return (parseJson(text) as { id: number | bigint }[]).map((pet) => String(pet.id));
}

/** Creates a pet and checks the 201: the id is exactly `id`, written as digits in the body and the Location. */
async function createsWithId(send: Send, id: string, name: string): Promise<void> {
  const created = await send('POST', '/pets', `{"name":"${name}","categoryId":${TWO_63_MINUS_1},"status":"sold"}`);
  expect(created.status, created.text).toBe(201);
  expect(created.text).toBe(`{"id":${id},"name":"${name}","categoryId":${TWO_63_MINUS_1},"status":"sold"}`);
  expect(created.headers.get('location')).toMatch(new RegExp(`/pets/${id}$`));
}

/** GET /pets/{id} answers the pet with exactly that id. */
async function findsId(send: Send, id: string, name: string): Promise<void> {
  const found = await send('GET', `/pets/${id}`);
  expect(found.status, found.text).toBe(200);
  expect(found.text).toBe(`{"id":${id},"name":"${name}","categoryId":${TWO_63_MINUS_1},"status":"sold"}`);
}

/** A create past nextId 2^63 − 1 is 409 store_full in the Error shape naming nextId, and stores nothing. */
async function refusesPastInt64(send: Send, listPath = '/pets?limit=100'): Promise<void> {
  const before = await send('GET', listPath);
  const refused = await send('POST', '/pets', '{"name":"one too many","categoryId":1}');
  expect(refused.status).toBe(409);
  expect(refused.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(refused.text) as { code: string; message: string; status: number };
  expect(body).toMatchObject({ code: 'store_full', status: 409 });
  expect(body.message).toContain(`nextId is ${TWO_63_MINUS_1}`);
  expect((await send('GET', listPath)).text).toBe(before.text);
}

/**
 * The whole walk on one running mock: nextId 2^53 → ids 2^53 and 2^53 + 1 (found by GET, listed in order under
 * `limit`); then nextId 2^63 − 2 beside them → id 2^63 − 2, and the next create refused.
 */
async function walkTheEdges(send: Send, restore: (nextId: string, pets: string) => Promise<void>): Promise<void> {
  await restore(TWO_53, '[]');
  await createsWithId(send, TWO_53, 'a');
  await createsWithId(send, TWO_53_PLUS_1, 'b');
  await findsId(send, TWO_53, 'a');
  await findsId(send, TWO_53_PLUS_1, 'b');
  // The number a JavaScript client would round 2^53 + 1 to is 2^53: the path's digits are looked up as sent.
  expect((await send('GET', '/pets/9007199254740994')).status).toBe(404);
  expect(idsOf((await send('GET', '/pets?limit=1')).text)).toEqual([TWO_53]);
  expect(idsOf((await send('GET', '/pets?status=sold')).text)).toEqual([TWO_53, TWO_53_PLUS_1]);
  const both = (await send('GET', '/pets')).text.slice(1, -1);
  await restore(TWO_63_MINUS_2, `[${both}]`);
  await createsWithId(send, TWO_63_MINUS_2, 'c');
  await findsId(send, TWO_63_MINUS_2, 'c');
  expect(idsOf((await send('GET', '/pets?limit=2')).text)).toEqual([TWO_53, TWO_53_PLUS_1]);
  expect(idsOf((await send('GET', '/pets')).text)).toEqual([TWO_53, TWO_53_PLUS_1, TWO_63_MINUS_2]);
  await refusesPastInt64(send);
}

describe('the in-process mock (the fetch function and the MSW handlers share the core)', () => {
  it('petstore-kit/fetch: ids 2^53, 2^53 + 1 and 2^63 − 2 exact; past 2^63 − 1 refused', async () => {
    const petstoreFetch = createPetstoreFetch({ apiKeys: [KEY], baseUrl: 'https://api.example.test/v1' });
    try {
      await walkTheEdges(sender('https://api.example.test/v1', petstoreFetch), (nextId, pets) =>
        petstoreFetch.restore(parseJson(`{"nextId":${nextId},"pets":${pets}}`) as never),
      );
      expect(String((await petstoreFetch.snapshot()).nextId)).toBe(TWO_63_MINUS_1);
    } finally {
      await petstoreFetch.close();
    }
  });

  it('petstore-kit/msw: the same through MSW', async () => {
    const handlers = petstoreHandlers({ apiKeys: [KEY] });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await walkTheEdges(sender('http://127.0.0.1:4010/v1'), (nextId, pets) =>
        handlers.restore(parseJson(`{"nextId":${nextId},"pets":${pets}}`) as never),
      );
    } finally {
      server.close();
      await handlers.close();
    }
  });
});

describe('the admin API', () => {
  it('takes nextId 2^63 − 1 exactly, and refuses 2^63 (400 naming body.nextId), changing nothing', async () => {
    const api = await startApi({ apiKeys: [KEY] });
    try {
      const send = sender(api.server.origin);
      const taken = await send('PUT', '/__admin/state', `{"nextId":${TWO_63_MINUS_1},"pets":[]}`);
      expect(taken.status, taken.text).toBe(200);
      expect(taken.text).toBe(`{"petCount":0,"nextId":${TWO_63_MINUS_1}}`);
      const refused = await send('PUT', '/__admin/state', `{"nextId":${TWO_63},"pets":[]}`);
      expect(refused.status).toBe(400);
      const body = JSON.parse(refused.text) as { code: string; message: string; status: number };
      expect(body).toMatchObject({ status: 400 });
      expect(body.message).toContain(`body.nextId must be at most ${TWO_63_MINUS_1}`);
      expect((await send('GET', '/__admin/state')).text).toContain(`"nextId":${TWO_63_MINUS_1}`);
      await refusesPastInt64(sender(api.server.url));
    } finally {
      await api.close();
    }
  });
});

/** A mock process (the built CLI) with `args`, and its base URL. */
async function startMock(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const { child, match } = await startCli(
    ['mock', '--port', '0', '--quiet', '--no-config', '--api-key', KEY, ...args],
    /listening on (http:\/\/\S+)/,
  );
  return { child, url: match[1]! };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null) return;
  const closed = once(child, 'close');
  child.kill(signal);
  await closed;
}

/** The admin restore of a running mock process. */
function adminRestore(url: string) {
  const origin = new URL(url).origin;
  return async (nextId: string, pets: string) => {
    const restored = await sender(origin)('PUT', '/__admin/state', `{"nextId":${nextId},"pets":${pets}}`);
    expect(restored.status, restored.text).toBe(200);
  };
}

describe('--state FILE', () => {
  it('keeps ids 2^53, 2^53 + 1 and 2^63 − 2 and nextId 2^63 − 1 through kill -9 (the journal) and a clean stop (the file)', async () => {
    const state = join(tmp(), 'state.json');
    let mock = await startMock(['--state', state]);
    try {
      const restore = adminRestore(mock.url);
      await restore(TWO_53, '[]');
      await createsWithId(sender(mock.url), TWO_53, 'a');
      await createsWithId(sender(mock.url), TWO_53_PLUS_1, 'b');
      // Acknowledged: on disk in the journal. No chance to clean up.
      await stop(mock.child, 'SIGKILL');
      mock = await startMock(['--state', state]);
      await findsId(sender(mock.url), TWO_53, 'a');
      await findsId(sender(mock.url), TWO_53_PLUS_1, 'b');
      expect(idsOf((await sender(mock.url)('GET', '/pets?limit=1')).text)).toEqual([TWO_53]);
      // The next id continues above them: 2^53 + 2, never one handed out before.
      await createsWithId(sender(mock.url), '9007199254740994', 'after the crash');
      const three = (await sender(mock.url)('GET', '/pets')).text.slice(1, -1);
      await adminRestore(mock.url)(TWO_63_MINUS_2, `[${three}]`);
      await createsWithId(sender(mock.url), TWO_63_MINUS_2, 'c');
      await stop(mock.child, 'SIGKILL');
      mock = await startMock(['--state', state]);
      await findsId(sender(mock.url), TWO_63_MINUS_2, 'c');
      await refusesPastInt64(sender(mock.url));
      // A clean stop writes the file whole; it starts again with every pet and nextId 2^63 − 1.
      await stop(mock.child, 'SIGTERM');
      mock = await startMock(['--state', state]);
      const send = sender(mock.url);
      expect(idsOf((await send('GET', '/pets')).text)).toEqual([
        TWO_53,
        TWO_53_PLUS_1,
        '9007199254740994',
        TWO_63_MINUS_2,
      ]);
      await findsId(send, TWO_63_MINUS_2, 'c');
      expect((await sender(new URL(mock.url).origin)('GET', '/__admin/state')).text).toContain(
        `"nextId":${TWO_63_MINUS_1}`,
      );
      await refusesPastInt64(send);
    } finally {
      await stop(mock.child, 'SIGTERM');
    }
  });
});

describeRedis('team mode (Redis)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('two replicas hand out and find ids 2^53, 2^53 + 1 and 2^63 − 2 exactly, in order, and refuse past 2^63 − 1', async () => {
    const args = ['--store', redis.url, '--store-prefix', 'int64'];
    const one = await startMock(args);
    const two = await startMock(args);
    try {
      const [a, b] = [sender(one.url), sender(two.url)];
      await adminRestore(one.url)(TWO_53, '[]');
      await createsWithId(a, TWO_53, 'a');
      await createsWithId(b, TWO_53_PLUS_1, 'b');
      await findsId(b, TWO_53, 'a');
      await findsId(a, TWO_53_PLUS_1, 'b');
      expect(idsOf((await b('GET', '/pets?limit=1&status=sold')).text)).toEqual([TWO_53]);
      const both = (await a('GET', '/pets')).text.slice(1, -1);
      await adminRestore(two.url)(TWO_63_MINUS_2, `[${both}]`);
      await createsWithId(a, TWO_63_MINUS_2, 'c');
      await findsId(b, TWO_63_MINUS_2, 'c');
      expect(idsOf((await b('GET', '/pets')).text)).toEqual([TWO_53, TWO_53_PLUS_1, TWO_63_MINUS_2]);
      await refusesPastInt64(b);
      await refusesPastInt64(a);
      // A replica started now joins the store as it is: nextId stays 2^63 − 1.
      await stop(one.child, 'SIGTERM');
      const three = await startMock(args);
      try {
        await refusesPastInt64(sender(three.url));
        await findsId(sender(three.url), TWO_53_PLUS_1, 'b');
      } finally {
        await stop(three.child, 'SIGTERM');
      }
    } finally {
      await stop(one.child, 'SIGTERM');
      await stop(two.child, 'SIGTERM');
    }
  });
});
