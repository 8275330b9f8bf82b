import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * test/fixtures/documents/item-actions.yaml on plain node:http, written from the document alone (it imports nothing
 * of petstore-kit): boxes made, read and deleted, sealed (POST /boxes/{boxId}/seal, which declares a 404) and
 * labelled (POST /boxes/{id}/label, which declares none). Each fault is one a team makes, switched on by name.
 */
export const BOXES_FAULTS = [
  // Use after delete: a deleted box is still sealed (200), where sealBox declares a 404 for a box it does not find.
  'seal-after-delete',
  // No lookup at all: any id is sealed, a box made up on the spot (so a deleted one too).
  'seal-any-id',
] as const;

export type BoxesFault = (typeof BOXES_FAULTS)[number];

interface Box {
  id: number;
  name: string;
  sealed: boolean;
}

interface Reply {
  status: number;
  body?: unknown;
}

const error = (status: number, code: string, message: string): Reply => ({ status, body: { code, message } });

/** A JSON object body with exactly the members `allowed` names (additionalProperties: false), or why not. */
function objectBody(body: unknown, allowed: string[]): Record<string, unknown> | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const unknown = Object.keys(body).find((name) => !allowed.includes(name));
  return unknown ? `${unknown}: not a member of this body` : (body as Record<string, unknown>);
}

function sealProblem(body: unknown): string | undefined {
  const fields = objectBody(body, ['reason', 'tape']);
  if (typeof fields === 'string') return fields;
  if (fields.reason !== 'moving' && fields.reason !== 'storage') return 'reason: moving or storage';
  const tape = fields.tape;
  if (tape !== undefined && (typeof tape !== 'number' || !Number.isInteger(tape) || tape < 1 || tape > 5))
    return 'tape: an integer from 1 to 5';
  return undefined;
}

async function readJson(req: IncomingMessage): Promise<{ body?: unknown; wrong?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return { wrong: 'send application/json' };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { wrong: 'the body is not JSON' };
  }
}

export async function startBoxes(options: { token: string; fault?: BoxesFault }) {
  // Keyed by the id's digits: an int64 id (2^63−1) is an id like any other, looked up and not found.
  const boxes = new Map<string, Box>();
  const deleted = new Map<string, Box>();
  let next = 1;
  const route = async (req: IncomingMessage): Promise<Reply> => {
    // RFC 9110 §11.1: the scheme's name is a case-insensitive token.
    const [scheme, token, ...more] = (req.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || token !== options.token || more.length > 0)
      return error(401, 'unauthorized', 'a bearer token');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/boxes(?:\/([^/]+)(?:\/(seal|label))?)?$/.exec(url.pathname);
    if (!match) return error(404, 'not_found', `no resource at ${url.pathname}`);
    const read = await readJson(req);
    if (read.wrong) return error(400, 'bad_request', read.wrong);
    const [, idText, action] = match;
    const method = req.method ?? 'GET';
    if (idText === undefined) {
      if (method !== 'POST') return error(405, 'method', `${method} is not allowed`);
      const fields = objectBody(read.body, ['name']);
      if (typeof fields === 'string') return error(400, 'bad_request', fields);
      if (typeof fields.name !== 'string' || fields.name.length < 1 || [...fields.name].length > 30)
        return error(400, 'bad_request', 'name: 1 to 30 characters');
      const box = { id: next++, name: fields.name, sealed: false };
      boxes.set(String(box.id), box);
      return { status: 201, body: box };
    }
    if (!/^\d{1,19}$/.test(idText) || BigInt(idText) > 2n ** 63n - 1n)
      return error(400, 'bad_request', 'boxId: an int64');
    const id = BigInt(idText).toString();
    const box = boxes.get(id);
    if (action === 'label') {
      if (method !== 'POST') return error(405, 'method', `${method} is not allowed`);
      const color = url.searchParams.get('color');
      if (color !== null && color !== 'red' && color !== 'blue') return error(400, 'bad_request', 'color: red or blue');
      // labelBox declares no 404: a box it does not hold is a bad request.
      return box ? { status: 204 } : error(400, 'bad_request', `no box ${id}`);
    }
    if (action === 'seal') {
      if (method !== 'POST') return error(405, 'method', `${method} is not allowed`);
      const wrong = sealProblem(read.body);
      if (wrong) return error(400, 'bad_request', wrong);
      const found =
        box ??
        (options.fault === 'seal-after-delete' ? deleted.get(id) : undefined) ??
        (options.fault === 'seal-any-id' ? { id: 0, name: 'found', sealed: false } : undefined);
      if (!found) return error(404, 'not_found', `no box ${id}`);
      found.sealed = true;
      return { status: 200, body: found };
    }
    if (method === 'GET') return box ? { status: 200, body: box } : error(404, 'not_found', `no box ${id}`);
    if (method === 'DELETE') {
      if (!box) return error(404, 'not_found', `no box ${id}`);
      boxes.delete(id);
      deleted.set(id, box);
      return { status: 204 };
    }
    return error(405, 'method', `${method} is not allowed`);
  };
  const server = createServer((req, res) => {
    route(req).then(
      (reply) => {
        if (reply.body === undefined) return res.writeHead(reply.status).end();
        const text = JSON.stringify(reply.body);
        res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
