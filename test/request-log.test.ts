import { beforeAll, describe, expect, it } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { createMock, type Mock } from '../src/mock/create-mock.js';
import { colourByDefault, createRequestLog, type RequestLogOptions } from '../src/log/create-request-log.js';

const KEY = 'log-test-key-0d9e';

function sink() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      writes.push(String(chunk));
      done();
    },
  });
  return { stream, writes, text: () => writes.join('') };
}

let mock: Mock;
beforeAll(async () => {
  mock = await createMock({ apiKeys: [KEY] });
});

/** Runs requests through the mock with a log attached and returns what it wrote once flushed. */
async function logOf(
  options: RequestLogOptions,
  requests: Array<{ method: string; url: string; key?: string | null; body?: unknown }>,
  { concurrent = false } = {},
) {
  const out = sink();
  const log = createRequestLog({ keys: mock.apiKeys, stream: out.stream, ...options });
  mock.observers.add(log.observe);
  try {
    const send = (request: (typeof requests)[number]) =>
      mock.dispatch({
        method: request.method,
        url: request.url,
        headers: {
          ...(request.key === null ? {} : { authorization: `Bearer ${request.key ?? KEY}` }),
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: Readable.from(request.body === undefined ? [] : [Buffer.from(JSON.stringify(request.body))]),
        mountPath: '',
      });
    if (concurrent) await Promise.all(requests.map(send));
    else for (const request of requests) await send(request);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    mock.observers.delete(log.observe);
    log.flush();
  }
  return out;
}

describe('createRequestLog', () => {
  it('writes one concise text line a request: time, method, path, status, ms, and the Error code', async () => {
    const out = await logOf({ format: 'text', colour: false }, [
      { method: 'GET', url: '/v1/pets?limit=2' },
      { method: 'GET', url: '/v1/pets?limit=500' },
      { method: 'GET', url: '/v1/pets', key: null },
    ]);
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/v1\/pets\?limit=2 200 \d+\.\d\dms$/);
    expect(lines[1]).toMatch(/ GET \/v1\/pets\?limit=500 400 \d+\.\d\dms invalid_parameter$/);
    expect(lines[2]).toMatch(/ GET \/v1\/pets 401 \d+\.\d\dms unauthorized$/);
    expect(out.text()).not.toContain('\x1b[');
  });

  it('colours the status by class when asked (as on a terminal)', async () => {
    const out = await logOf({ format: 'text', colour: true }, [
      { method: 'GET', url: '/v1/pets' },
      { method: 'GET', url: '/v1/nowhere' },
    ]);
    expect(out.text()).toContain('\x1b[32m200\x1b[0m');
    expect(out.text()).toContain('\x1b[33m404\x1b[0m');
  });

  it('writes JSON Lines for machines', async () => {
    const out = await logOf({ format: 'json' }, [
      { method: 'POST', url: '/v1/pets', body: { name: 'Logged', categoryId: 1 } },
      { method: 'POST', url: '/v1/pets', body: { categoryId: 'x' } },
    ]);
    const entries = out
      .text()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      method: 'POST',
      url: '/v1/pets',
      status: 201,
      durationMs: expect.any(Number),
      operationId: 'createPet',
    });
    expect(entries[1]).toMatchObject({ status: 400, operationId: 'createPet', code: 'invalid_body' });
  });

  it('never writes a key: not the Authorization header, not a key-like query value, not a key in the path', async () => {
    for (const format of ['text', 'json'] as const) {
      const out = await logOf({ format, colour: false }, [
        { method: 'GET', url: `/v1/pets?api_key=${KEY}&limit=1` },
        { method: 'GET', url: '/v1/pets?access_token=other-secret' },
        { method: 'GET', url: `/v1/pets/${KEY}` },
        { method: 'GET', url: '/v1/pets', key: 'wrong-key-guess' },
      ]);
      expect(out.text()).not.toContain(KEY);
      expect(out.text()).not.toContain('other-secret');
      expect(out.text()).not.toContain('Bearer');
      expect(out.text()).toContain('api_key=***&limit=1');
      expect(out.text()).toContain('/v1/pets/***');
    }
  });

  it('batches the lines of one turn of the event loop into one write', async () => {
    const out = await logOf(
      { format: 'text', colour: false },
      Array.from({ length: 5 }, () => ({ method: 'GET', url: '/v1/pets?limit=1' })),
      { concurrent: true },
    );
    expect(out.text().trimEnd().split('\n')).toHaveLength(5);
    expect(out.writes).toHaveLength(1);
  });

  it('logs the path as the client sent it when the mock is mounted under a prefix', async () => {
    const out = sink();
    const log = createRequestLog({ stream: out.stream, colour: false });
    mock.observers.add(log.observe);
    await mock.dispatch({
      method: 'GET',
      url: '/v1/pets?limit=1',
      headers: { authorization: `Bearer ${KEY}` },
      body: Readable.from([]),
      mountPath: '/mock',
    });
    mock.observers.delete(log.observe);
    log.flush();
    expect(out.text()).toContain(' GET /mock/v1/pets?limit=1 200 ');
  });

  it('stops logging, and keeps the mock serving, when its reader goes away (EPIPE)', async () => {
    let writes = 0;
    const stream = new Writable({
      write(_chunk, _encoding, done) {
        writes++;
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const log = createRequestLog({ stream, colour: false });
    mock.observers.add(log.observe);
    try {
      const ask = () =>
        mock.dispatch({
          method: 'GET',
          url: '/v1/pets?limit=1',
          headers: { authorization: `Bearer ${KEY}` },
          body: Readable.from([]),
          mountPath: '',
        });
      expect((await ask()).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect((await ask()).status).toBe(200);
      log.flush();
      expect(writes).toBe(1);
    } finally {
      mock.observers.delete(log.observe);
    }
  });
});

describe('a dropped connection', () => {
  it('is logged as "dropped", not as a bare status 0', async () => {
    const flaky = await createMock({ apiKeys: [KEY], faultRate: 1 });
    const out = sink();
    const log = createRequestLog({ keys: flaky.apiKeys, stream: out.stream, format: 'text', colour: false });
    flaky.observers.add(log.observe);
    await flaky.dispatch({
      method: 'GET',
      url: '/v1/pets',
      headers: { authorization: `Bearer ${KEY}` },
      body: Readable.from([]),
      mountPath: '',
    });
    log.flush();
    expect(out.text()).toMatch(/ GET \/v1\/pets 0 \d+\.\d\dms dropped\n$/);
  });
});

describe('colour by default', () => {
  // TERM=dumb (Emacs shells, some CI logs) got escape codes.
  it.each([
    ['a terminal', true, {}, true],
    ['a pipe', false, {}, false],
    ['a terminal with TERM=dumb', true, { TERM: 'dumb' }, false],
    ['a terminal with NO_COLOR', true, { TERM: 'xterm-256color', NO_COLOR: '1' }, false],
    ['a pipe with FORCE_COLOR=1', false, { FORCE_COLOR: '1' }, true],
    ['TERM=dumb with FORCE_COLOR=1', true, { TERM: 'dumb', FORCE_COLOR: '1' }, true],
    ['a terminal with FORCE_COLOR=0', true, { FORCE_COLOR: '0' }, false],
  ])('for %s is %s', (_, isTTY, env, want) => {
    expect(colourByDefault({ isTTY }, env as NodeJS.ProcessEnv)).toBe(want);
  });
});
