// The reference work for the side-by-side benchmark: the same pets, the same bearer check and the same bytes and
// headers as the mock answers (bench.mjs compares them before measuring), done the least a hand-written server can
// do. Both baselines (bare node:http and minimal Express) run this one function, so the difference between them is
// the framework's own cost.
import { readFileSync } from 'node:fs';

const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/pets.json', import.meta.url), 'utf8'));

export function createBaselineHandler(key) {
  const expected = `Bearer ${key}`;
  const pets = fixtures.slice();
  const byId = new Map(pets.map((pet) => [pet.id, pet]));
  let nextId = Math.max(...pets.map((pet) => pet.id)) + 1;
  // What the mock sends with getPet, the deprecated operation (openapi.yaml's x-deprecated-since, x-sunset, x-replaced-by).
  const deprecation = {
    Deprecation: '@1795305600',
    Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    Link: '</v1/pets>; rel="successor-version"',
  };

  function send(res, status, body, extra) {
    const text = JSON.stringify(body);
    const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
    if (extra) Object.assign(headers, extra);
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = Buffer.byteLength(text);
    res.writeHead(status, headers);
    res.end(text);
  }

  return function baseline(req, res) {
    if (req.headers.authorization !== expected) {
      send(res, 401, { code: 'unauthorized', message: 'missing or invalid API key', status: 401 });
      return;
    }
    const queryAt = req.url.indexOf('?');
    const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    if (path === '/v1/pets' && req.method === 'GET') {
      const limit = Number(new URLSearchParams(queryAt === -1 ? '' : req.url.slice(queryAt + 1)).get('limit') ?? 20);
      send(res, 200, pets.slice(0, limit));
      return;
    }
    if (path === '/v1/pets' && req.method === 'POST') {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        let body;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          send(res, 400, { code: 'invalid_json', message: 'not JSON', status: 400 });
          return;
        }
        if (typeof body?.name !== 'string' || !Number.isSafeInteger(body.categoryId)) {
          send(res, 400, { code: 'invalid_body', message: 'name and categoryId are required', status: 400 });
          return;
        }
        const pet = { id: nextId++, name: body.name, categoryId: body.categoryId };
        if (body.status !== undefined) pet.status = body.status;
        pets.push(pet);
        byId.set(pet.id, pet);
        send(res, 201, pet, { Location: `/v1/pets/${pet.id}` });
      });
      return;
    }
    if (path.startsWith('/v1/pets/') && req.method === 'GET') {
      const pet = byId.get(Number(path.slice('/v1/pets/'.length)));
      if (pet) send(res, 200, pet, deprecation);
      else send(res, 404, { code: 'not_found', message: 'no such pet', status: 404 }, deprecation);
      return;
    }
    send(res, 404, { code: 'not_found', message: 'no such path', status: 404 });
  };
}
