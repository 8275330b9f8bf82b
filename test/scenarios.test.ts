import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Readable } from 'node:stream';
import type { Mock } from '../src/index.js';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { startApi, expectError, TEST_KEY, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { createMock, createMockServer, parseDelay } from '../src/index.js';
import { defaultSpecFile } from '../src/paths.js';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
beforeEach(() => api.server.reset());
afterAll(() => api.close());

const PET = { name: 'Biscuit', categoryId: 6, status: 'available' };

/** The store as it is, to prove that a forced scenario changed nothing. */
const state = () => api.server.snapshot();

/**
 * Latency without a wall clock: the mock's timers and `performance.now()` are faked, a request goes through the front
 * door, and the clock is moved by hand. Resolves with the reply, after checking that it was still pending 1 ms
 * before `ms` and was there at `ms`; the observers' `durationMs` is then exactly `ms`.
 */
async function answeredAfter(mock: Mock, ms: number, url: string, headers: Record<string, string> = {}) {
  const durations: number[] = [];
  const observer = (served: { durationMs: number }) => void durations.push(served.durationMs);
  mock.observers.add(observer);
  try {
    let settled = false;
    const pending = mock.dispatch({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${TEST_KEY}`, ...headers },
      body: Readable.from([]),
      mountPath: '',
    });
    void pending.then(() => (settled = true));
    if (ms > 0) {
      await vi.advanceTimersByTimeAsync(ms - 1);
      expect(settled, `answered before ${ms} ms`).toBe(false);
    }
    await vi.advanceTimersByTimeAsync(1);
    expect(settled, `not answered at ${ms} ms`).toBe(true);
    expect(durations).toEqual([ms]);
    return pending;
  } finally {
    mock.observers.delete(observer);
  }
}

describe('Prefer: code= forces a documented status, for the stateful operations too', () => {
  it('answers 401 with the documented Error example and a challenge, though the key is good', async () => {
    const response = await api.get('/pets', { headers: { prefer: 'code=401' } });
    expect(response.status).toBe(401);
    // A forced 401 cannot know which of the two it stands for: the example says both.
    expect(response.body).toEqual({ code: 'unauthorized', message: 'the API key is missing or invalid', status: 401 });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    expect(response.headers.get('preference-applied')).toBe('code=401');
  });

  it('answers 404 for a pet that exists, and 400 for a valid create, storing nothing', async () => {
    const before = await state();
    const missing = await api.get('/pets/1', { headers: { prefer: 'code=404' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not_found', message: 'no pet has id 999', status: 404 });
    expect(missing.headers.get('deprecation')).toBeTruthy();
    const rejected = await api.post('/pets', PET, { headers: { prefer: 'code=400' } });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toEqual({ code: 'invalid_body', message: 'body.name is required', status: 400 });
    expect(await state()).toEqual(before);
  });

  it('answers a forced 201 with the documented example and does not store it', async () => {
    const before = await state();
    const response = await api.post('/pets', PET, { headers: { prefer: 'code=201' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: 51, name: 'Rex', categoryId: 1, status: 'available' });
    expect(response.headers.get('location')).toBeNull();
    expect(await state()).toEqual(before);
    expect((await api.post('/pets', PET)).body.id).toBe(before.nextId);
  });

  it('still gives the real answer to a request that is wrong anyway: no key, a bad parameter, a bad body', async () => {
    expectError(await api.get('/pets', { key: null, headers: { prefer: 'code=200' } }), 401, 'unauthorized', 'missing');
    expectError(
      await api.get('/pets?limit=500', { headers: { prefer: 'code=401' } }),
      400,
      'invalid_parameter',
      'query.limit',
    );
    const before = await state();
    expectError(
      await api.post('/pets', { categoryId: 1 }, { headers: { prefer: 'code=201' } }),
      400,
      'invalid_body',
      'body.name is required',
    );
    expect(await state()).toEqual(before);
  });

  it.each([
    ['code=418', 'code=418: listPets documents no 418 response (documented: 200, 401)'],
    ['code=404', 'code=404: listPets documents no 404 response'],
    ['code=40', 'code=40 is malformed'],
    ['delay=soon', 'delay=soon is malformed'],
    ['delay=60001', 'delay=60001 is over 60000'],
    [
      'example=nope',
      'example=nope: listPets documents no example named "nope" (documented: pets, empty, unauthorized)',
    ],
    ['code=401, example=empty', 'documents no example named "empty" for 401'],
  ])('rejects Prefer: %s with a 400 naming the header and the rule', async (prefer, message) => {
    const response = await api.get('/pets', { headers: { prefer } });
    expectError(
      response,
      400,
      'invalid_parameter',
      'header.Prefer',
      message,
      'code must be a three-digit status the operation documents',
    );
  });

  it('rejects a forced code createPet does not document and stores nothing', async () => {
    const before = await state();
    expectError(
      await api.post('/pets', PET, { headers: { prefer: 'code=404' } }),
      400,
      'invalid_parameter',
      'header.Prefer code=404: createPet documents no 404',
    );
    expect(await state()).toEqual(before);
  });
});

describe('Prefer: example= serves a documented example', () => {
  it('serves the empty list', async () => {
    const response = await api.get('/pets', { headers: { prefer: 'example=empty' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get('preference-applied')).toBe('example=empty');
  });

  it('serves a named example of a forced code, and the first one by default', async () => {
    expect((await api.get('/pets', { headers: { prefer: 'code=200, example=pets' } })).body).toHaveLength(3);
    expect(
      (await api.get('/pets', { headers: { prefer: 'code=200' } })).body.map((p: { name: string }) => p.name),
    ).toEqual(['Rex', 'Whiskers', 'Goldie']);
  });
});

describe('Prefer: delay= adds latency', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await createMock({ apiKeys: [TEST_KEY] });
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the asked milliseconds, for errors too', async () => {
    const ok = await answeredAfter(mock, 150, '/v1/pets?limit=1', { prefer: 'delay=150' });
    expect(ok.status).toBe(200);
    expect(ok.headers['Preference-Applied']).toBe('delay=150');
    const failure = await answeredAfter(mock, 120, '/v1/pets?limit=0', { prefer: 'delay=120' });
    expect(failure.status).toBe(400);
  });

  it('combines with a forced code', async () => {
    const forced = await answeredAfter(mock, 100, '/v1/pets', { prefer: 'code=401, delay=100' });
    expect(forced.status).toBe(401);
    expect(forced.headers['Preference-Applied']).toBe('code=401, delay=100');
  });

  it('is not honoured when malformed or too long: the 400 comes at once', async () => {
    expect((await answeredAfter(mock, 0, '/v1/pets', { prefer: 'delay=soon' })).status).toBe(400);
    expect((await answeredAfter(mock, 0, '/v1/pets', { prefer: 'delay=60001' })).status).toBe(400);
  });

  it('over HTTP, the answer is the real one', async () => {
    vi.useRealTimers();
    const response = await api.get('/pets?limit=1', { headers: { prefer: 'delay=5' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('delay=5');
  });
});

describe('documents the scenario stage relies on', () => {
  async function document() {
    return parse(await readFile(defaultSpecFile, 'utf8'));
  }

  it('serves a valid Error for a documented error status that has no example', async () => {
    const spec = await document();
    spec.paths['/pets'].get.responses['403'] = {
      description: 'forbidden',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    const forbidden = await startApi({ spec });
    try {
      const response = await forbidden.get('/pets', { headers: { prefer: 'code=403' } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        code: 'http_403',
        message: 'forced by the request\'s "Prefer: code=403" header',
        status: 403,
      });
      const unauthorized = await forbidden.get('/pets/1', { headers: { prefer: 'code=401' } });
      expect(unauthorized.body.code).toBe('unauthorized');
    } finally {
      await forbidden.close();
    }
  });

  it('refuses at start-up a document whose example breaks its own schema', async () => {
    const spec = await document();
    spec.paths['/pets'].get.responses['200'].content['application/json'].examples.empty.value = [{ id: 'x' }];
    await expect(createMock({ spec })).rejects.toThrow(
      'listPets response 200 example "empty" breaks its schema: example[0].name is required; example[0].categoryId is required; example[0].id must be an integer',
    );
  });
});

describe('global latency and faults', () => {
  it('--delay adds a fixed latency to every answer, errors included; Prefer: delay overrides it', async () => {
    const slow = await createMock({ apiKeys: [TEST_KEY], delay: 120 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      expect((await answeredAfter(slow, 120, '/v1/pets?limit=1')).status).toBe(200);
      expect((await answeredAfter(slow, 120, '/v1/pets', { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await answeredAfter(slow, 120, '/v1/nowhere')).status).toBe(404);
      expect(slow.journal({ limit: 3 }).map((entry) => entry.durationMs)).toEqual([120, 120, 120]);
      expect((await answeredAfter(slow, 0, '/v1/pets?limit=1', { prefer: 'delay=0' })).status).toBe(200);
      expect((await answeredAfter(slow, 30, '/v1/pets?limit=1', { prefer: 'delay=30' })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it("--delay with a range picks each answer's latency from it, both ends included", async () => {
    const ranged = await createMock({ apiKeys: [TEST_KEY], delay: { min: 120, max: 121 } });
    const random = vi.spyOn(Math, 'random');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      random.mockReturnValueOnce(0);
      expect((await answeredAfter(ranged, 120, '/v1/pets?limit=1')).status).toBe(200);
      random.mockReturnValueOnce(0.999);
      expect((await answeredAfter(ranged, 121, '/v1/pets?limit=1')).status).toBe(200);
    } finally {
      vi.useRealTimers();
      random.mockRestore();
    }
  });

  it('faultRate 1 drops every connection before the handler runs, and the journal says so', async () => {
    const server = await createMockServer({ apiKeys: [TEST_KEY], faultRate: 1 });
    try {
      const before = await server.snapshot();
      const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };
      await expect(fetch(`${server.url}/pets`, { headers })).rejects.toThrow();
      await expect(
        fetch(`${server.url}/pets`, { method: 'POST', headers, body: JSON.stringify(PET) }),
      ).rejects.toThrow();
      expect(await server.snapshot()).toEqual(before);
      const [latest] = server.journal({ limit: 1 });
      expect(latest).toMatchObject({
        method: 'POST',
        status: 0,
        fault: 'connection dropped',
        operationId: 'createPet',
        validation: null,
      });
      expect(server.journal({ status: 0 })).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('faultRate 0 drops nothing', async () => {
    const steady = await startApi({ faultRate: 0 });
    try {
      const responses = await Promise.all(Array.from({ length: 40 }, () => steady.get('/pets?limit=1')));
      expect(responses.every((response) => response.status === 200)).toBe(true);
    } finally {
      await steady.close();
    }
  });

  it.each([
    [{ faultRate: 1.5 }, 'faultRate must be a number from 0 to 1'],
    [{ delay: -1 }, 'delay must be whole milliseconds'],
    [{ delay: { min: 500, max: 100 } }, 'min <= max'],
  ])('rejects the option %j', async (options, message) => {
    await expect(createMock(options)).rejects.toThrow(message);
  });

  it.each([
    [['--delay', '100-50'], '--delay must be'],
    [['--fault-rate', '2'], '--fault-rate must be a number from 0 to 1'],
  ])('the CLI refuses %j with one line and exit 2', async (args, message) => {
    const result = await runCli(['mock', '--port', '0', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    ['200', { min: 200, max: 200 }],
    ['100-500', { min: 100, max: 500 }],
    ['500-100', undefined],
    ['slow', undefined],
    ['-5', undefined],
    ['60001', undefined],
  ])('parseDelay(%j) is %j', (text, want) => {
    expect(parseDelay(text)).toEqual(want);
  });
});
