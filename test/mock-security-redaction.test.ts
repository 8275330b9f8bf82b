import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { writeSecurityDocument } from './fixtures/security-documents.js';

/**
 * Keys stay out of every output for the schemes that put them in the query and in a cookie: the journal, the
 * request log (text and JSON) and error bodies. Both the mock's own key and a wrong one a client sends (a
 * mistyped key, or a real one of another service) are masked, also under a parameter name that does not look like a
 * credential (`appid`): the document says it is one.
 */
const KEY = 'redaction-key-0123456789';
const WRONG = 'someone-elses-key-98765';
const SHORT = 'w4g';

let query: MockServer;
let cookie: MockServer;
const lines: string[] = [];
beforeAll(async () => {
  const log = (format: 'text' | 'json') => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    return { format, stream, colour: false };
  };
  query = await createMockServer({ apiKeys: [KEY], spec: writeSecurityDocument('apikey-query'), log: log('text') });
  cookie = await createMockServer({ apiKeys: [KEY], spec: writeSecurityDocument('apikey-cookie'), log: log('json') });
});
afterAll(async () => {
  await query.close();
  await cookie.close();
});

/** Every form a value could be printed in: as sent, percent-encoded, base64. */
function forms(value: string): string[] {
  return [value, encodeURIComponent(value), Buffer.from(value).toString('base64').slice(0, -2)];
}

async function send(server: MockServer, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

describe('an apiKey in the query (appid)', () => {
  it('is masked in the journal, the log and every error body, whether it is the key or a wrong one', async () => {
    const answers = [
      await send(query, `/notes?appid=${KEY}&limit=2`),
      await send(query, `/notes?limit=2&appid=${WRONG}`),
      await send(query, `/notes?appid=${SHORT}`),
      await send(query, `/notes/abc?appid=${KEY}`),
      // The key where a number goes: the 400 quotes it, masked.
      await send(query, `/notes?appid=${KEY}&limit=${KEY}`),
      await send(query, `/notes?appid=${encodeURIComponent(WRONG)}`, {}, { text: WRONG }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 404, 400, 401]);
    await new Promise((resolve) => setImmediate(resolve));
    const journal = JSON.stringify(query.journal());
    const printed = [...answers.map((a) => a.text), journal, lines.join('\n')].join('\n');
    for (const secret of [KEY, WRONG]) for (const form of forms(secret)) expect(printed).not.toContain(form);
    // Too short to search for anywhere: masked where the document puts a key.
    expect(journal).not.toContain(`"appid":"${SHORT}"`);
    expect(lines.join('\n')).not.toContain(`appid=${SHORT}`);
    expect(journal).toContain('"appid":"***"');
    expect(lines.join('\n')).toContain('/v1/notes?limit=2&appid=***');
  });
});

describe('an apiKey in a cookie (sid)', () => {
  it('is masked in the journal, the log and every error body, whether it is the key or a wrong one', async () => {
    const answers = [
      await send(cookie, '/notes', { Cookie: `sid=${KEY}` }),
      await send(cookie, '/notes', { Cookie: `theme=dark; sid=${WRONG}` }),
      // A client that also puts its cookie's value in the query and the body.
      await send(cookie, `/notes?echo=${WRONG}`, { Cookie: `sid=${WRONG}` }, { text: WRONG }),
      await send(cookie, '/notes', { Cookie: `sid=${KEY}` }, { text: 'kept' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 201]);
    await new Promise((resolve) => setImmediate(resolve));
    const journal = JSON.stringify(cookie.journal());
    const printed = [...answers.map((a) => a.text), journal, lines.join('\n')].join('\n');
    for (const secret of [KEY, WRONG]) for (const form of forms(secret)) expect(printed).not.toContain(form);
    expect(journal).toContain('"cookie":"[redacted]"');
  });
});
