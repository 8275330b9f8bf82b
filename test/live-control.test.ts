import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { MAX_CONTROL_PREFER } from '../src/mock/front-door/live-control.js';

// Latency, faults, a scenario and a forced status, changed while the mock runs — from a test,
// without restarting the mock or changing the app's requests.
const KEY = 'live-control-key-19ab3c';
const auth = { Authorization: `Bearer ${KEY}` };

describe('PUT /__admin/control', () => {
  let server: MockServer;
  let admin: string;
  const control = (body: unknown, method = 'PUT', headers: Record<string, string> = auth) =>
    fetch(`${admin}/control`, {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      ...(method === 'PUT' ? { body: JSON.stringify(body) } : {}),
    });
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: [KEY] });
    admin = `${server.origin}/__admin`;
  });
  afterEach(() => server.resetControl());
  afterAll(() => server.close());

  it('starts with the start-up settings, and needs a key: without one, 401 and nothing changes', async () => {
    const shown = await fetch(`${admin}/control`, { headers: auth });
    expect(await shown.json()).toEqual({ delay: null, faultRate: 0, prefer: null, force: null });
    const refused = await control({ force: { status: 500 } }, 'PUT', {});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(server.control()).toEqual({ delay: null, faultRate: 0, prefer: null, force: null });
  });

  it('forces a status on the next N requests with an Error body, stores nothing, then serves as before', async () => {
    const count = await server.mock.store.count();
    const set = await control({ force: { status: 500, count: 2 } });
    expect(await set.json()).toMatchObject({ force: { status: 500, remaining: 2, path: null } });
    const first = await fetch(`${server.url}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(first.status).toBe(500);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await first.json()).toEqual({
      code: 'forced',
      status: 500,
      message: 'status 500 forced by the admin API (PUT /__admin/control)',
    });
    expect((await fetch(`${server.url}/pets/1`, { headers: auth })).status).toBe(500);
    expect((await fetch(`${server.url}/pets/1`, { headers: auth })).status).toBe(200);
    expect(await server.mock.store.count()).toBe(count);
    expect(server.control().force).toBeNull();
  });

  it('forces only under a path when given one', async () => {
    await control({ force: { status: 503, path: '/v1/pets/2' } });
    expect((await fetch(`${server.url}/pets/2`, { headers: auth })).status).toBe(503);
    expect((await fetch(`${server.url}/pets/1`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${server.url}/pets?limit=1`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${server.url}/pets/2`, { headers: auth })).status).toBe(503);
  });

  it("sets a default Prefer that a request's own Prefer overrides, and says on each answer it forces that it did", async () => {
    await control({ prefer: 'code=401' });
    const forced = await fetch(`${server.url}/pets/1`, { headers: auth });
    expect(forced.status).toBe(401);
    expect(forced.headers.get('preference-applied')).toBe('code=401');
    expect(forced.headers.get('petstore-kit-forced')).toBe('live control: prefer code=401');
    const own = await fetch(`${server.url}/pets/1`, { headers: { ...auth, Prefer: 'code=200' } });
    expect(own.status).toBe(200);
    expect(own.headers.get('petstore-kit-forced')).toBeNull();
    await control({ prefer: null, force: { status: 503, count: 1 } });
    expect((await fetch(`${server.url}/pets/1`, { headers: auth })).headers.get('petstore-kit-forced')).toBe(
      'live control: force 503',
    );
  });

  it('refuses a prefer some operation could not serve, and one past the bound, naming the field; the requests stay as they were', async () => {
    for (const [prefer, message] of [
      [
        'code=404',
        /^body\.prefer "code=404" cannot be served to every operation: code=404: listPets documents no 404 response/,
      ],
      [
        'code=500',
        /^body\.prefer "code=500" cannot be served to every operation: code=500: listPets documents no 500 response/,
      ],
      [
        'delay=99999999',
        /^body\.prefer "delay=99999999" cannot be served to every operation: delay=99999999 is over 60000/,
      ],
      [
        `code=401, example=${'x'.repeat(MAX_CONTROL_PREFER)}`,
        new RegExp(
          `^body\\.prefer must be at most ${MAX_CONTROL_PREFER} characters \\(got ${MAX_CONTROL_PREFER + 18}\\)$`,
        ),
      ],
    ] as const) {
      const refused = await control({ prefer });
      expect(refused.status).toBe(400);
      const error = (await refused.json()) as { code: string; message: string };
      expect(error.code).toBe('invalid_body');
      expect(error.message).toMatch(message);
      expect(server.control().prefer).toBeNull();
      expect((await fetch(`${server.url}/pets?limit=1`, { headers: auth })).status).toBe(200);
    }
    // The bound docs/mock.md states is this one.
    expect(readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8')).toContain(
      `At most ${MAX_CONTROL_PREFER.toLocaleString('en-US')} characters`,
    );
  });

  it('adds latency, and takes it away on DELETE', async () => {
    await control({ delay: 300 });
    let started = performance.now();
    await (await fetch(`${server.url}/pets?limit=1`, { headers: auth })).arrayBuffer();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const reset = await control(undefined, 'DELETE');
    expect(await reset.json()).toEqual({ delay: null, faultRate: 0, prefer: null, force: null });
    started = performance.now();
    await (await fetch(`${server.url}/pets?limit=1`, { headers: auth })).arrayBuffer();
    expect(performance.now() - started).toBeLessThan(290);
  });

  it('drops connections at the fault rate set', async () => {
    await control({ faultRate: 1 });
    await expect(fetch(`${server.url}/pets?limit=1`, { headers: auth })).rejects.toThrow();
    await control({ faultRate: 0 });
    expect((await fetch(`${server.url}/pets?limit=1`, { headers: auth })).status).toBe(200);
  });

  it.for([
    [{ force: { status: 200 } }, /^body\.force\.status must be an error status from 400 to 599/],
    [{ force: { status: 500, count: 0 } }, /^body\.force\.count must be a whole number of requests, at least 1/],
    [{ force: { status: 500, path: 'pets' } }, /^body\.force\.path must be a path starting with \//],
    [{ delay: -1 }, /^body\.delay must be whole milliseconds from 0 to 60000/],
    [{ delay: 'slow' }, /^body\.delay must be milliseconds or/],
    [{ faultRate: 2 }, /^body\.faultRate must be a number from 0 to 1/],
    [{ prefer: 'code=4x' }, /^body\.prefer: code=4x is malformed/],
    [{ bogus: 1 }, /^body\.bogus is not a setting/],
    [[], /^the body must be a JSON object/],
  ] as [unknown, RegExp][])('refuses %j with a 400 naming the field, and changes nothing', async ([body, message]) => {
    await control({ delay: 5 });
    const before = server.control();
    const refused = await control(body);
    expect(refused.status).toBe(400);
    const error = (await refused.json()) as { code: string; message: string; status: number };
    expect(error).toMatchObject({ code: 'invalid_body', status: 400 });
    expect(error.message).toMatch(message);
    expect(server.control()).toEqual(before);
  });
});
