import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';

/**
 * A things service on plain node:http, sharing no code with the mock or the runner: the answers of the documents
 * under test/fixtures/documents/ that show how OpenAPI reads an answer (a response declared without content, an
 * error in the document's own shape, a 201 without a body, a list whose `limit` the document leaves unbounded, a
 * probe answered 200 with no content). `/things` (create, list, read, delete) keeps things in memory; `/ping`
 * answers 200 with no content; `/legacy-things` answers 301 to `/things`; `/legacy-import` refuses every
 * request with 400.
 * Each option is how one document says it answers; each fault plants one bug a check must catch under its own id.
 */
export interface ThingsOptions {
  /** What a create answers: the thing as JSON (default), or no body and a Location (a 201 declared without content). */
  created?: 'body' | 'location';
  /** How a refused create (no `name` string) is answered: 400 without content (default), or a problem (RFC 9457). */
  refusal?: 'empty' | 'problem';
  /** How an unknown id is answered: 404 as a problem (RFC 9457, the default), or without content. */
  notFound?: 'problem' | 'empty';
  /** A list without `limit` (or with one below 1) holds at most this many things, the oldest first: a page size of its own. */
  pageSize?: number;
  /** Things stored before the run, so that a page of `pageSize` is full before the run adds any. */
  seeded?: number;
  /** The tag of those things (default `seed`): the value a run with a known run id filters on makes the filtered page full too. */
  seedTag?: string;
}

export type ThingsFault =
  | 'problem-status-differs' // a 404 problem's status member says 400 (RFC 9457 §3.1.3)
  | 'not-found-as-json' // a 404 problem is labelled application/json where the document declares problem+json
  | 'location-elsewhere' // a created thing's Location names the next id (the thing itself is stored)
  | 'list-ignores-limit' // the list holds every thing, whatever `limit` says
  | 'ping-html' // /ping answers 200 with an HTML page (the document declares no content: still no page)
  | 'legacy-200'; // /legacy-things answers 200 with the list instead of its declared 301

export interface ThingsService {
  url: string;
  /** Every request the service got, as `METHOD /path?query`. */
  requests: string[];
  close(): Promise<void>;
}

type Thing = { id: number; name: string; tag?: string };

/** Starts the service on an ephemeral port of 127.0.0.1. */
export async function startThingsService(options: ThingsOptions = {}, fault?: ThingsFault): Promise<ThingsService> {
  const things = new Map<number, Thing>();
  let nextId = 1;
  for (let i = 0; i < (options.seeded ?? 0); i++)
    things.set(nextId, { id: nextId++, name: `seed ${i}`, tag: options.seedTag ?? 'seed' });
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    void answer(req, res).catch(() => send(res, 500));
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const item = /^\/things\/([^/]+)$/.exec(url.pathname);
    if (url.pathname === '/ping' && req.method === 'GET')
      return fault === 'ping-html'
        ? send(res, 200, '<!doctype html><title>Sign in</title>', { 'content-type': 'text/html' })
        : send(res, 200);
    if (url.pathname === '/legacy-things' && req.method === 'GET')
      return fault === 'legacy-200'
        ? json(res, 200, [...things.values()])
        : send(res, 301, undefined, { location: '/things' });
    if (url.pathname === '/legacy-import' && req.method === 'POST') {
      await readText(req);
      return problem(res, 400, 'imports are retired');
    }
    if (url.pathname === '/things' && req.method === 'GET')
      return json(res, 200, listed(url.searchParams.get('limit'), url.searchParams.get('tag')));
    if (url.pathname === '/things' && req.method === 'POST') return create(req, res);
    if (item && req.method === 'GET') {
      const found = things.get(Number(item[1]));
      return found ? json(res, 200, found) : notFound(res);
    }
    if (item && req.method === 'DELETE') return things.delete(Number(item[1])) ? send(res, 204) : notFound(res);
    return notFound(res);
  }

  /**
   * The things with `tag` (all without one), oldest first: the first `limit` of them for a `limit` of at least 1, else
   * the first `pageSize` (all without one): `limit=-1` or `0` is "no limit" here, a choice the document leaves open.
   */
  function listed(limit: string | null, tag: string | null): Thing[] {
    const all = [...things.values()].filter((thing) => tag === null || thing.tag === tag);
    const count = limit === null || !/^-?\d+$/.test(limit) ? 0 : Number(limit);
    if (count >= 1 && fault !== 'list-ignores-limit') return all.slice(0, count);
    return options.pageSize === undefined ? all : all.slice(0, options.pageSize);
  }

  async function create(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(await readText(req));
    } catch {
      return refuse(res, 'not JSON');
    }
    const sent = body as Partial<Thing> | null;
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent) || typeof sent.name !== 'string')
      return refuse(res, 'name must be a string');
    if (sent.tag !== undefined && typeof sent.tag !== 'string') return refuse(res, 'tag must be a string');
    const thing: Thing = { id: nextId++, name: sent.name, ...(sent.tag === undefined ? {} : { tag: sent.tag }) };
    things.set(thing.id, thing);
    const location = `/things/${fault === 'location-elsewhere' ? thing.id + 1 : thing.id}`;
    if (options.created === 'location') return send(res, 201, undefined, { location });
    return json(res, 201, thing, { location });
  }

  function refuse(res: ServerResponse, why: string): void {
    if (options.refusal === 'problem') return problem(res, 400, why);
    send(res, 400);
  }

  function notFound(res: ServerResponse): void {
    if (options.notFound === 'empty') return send(res, 404);
    if (fault === 'not-found-as-json') return json(res, 404, { title: 'Not found', status: 404 });
    problem(res, 404, 'no such thing');
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function problem(res: ServerResponse, status: number, detail: string): void {
    const shown = fault === 'problem-status-differs' && status === 404 ? 400 : status;
    send(res, status, JSON.stringify({ type: 'about:blank', title: 'Problem', status: shown, detail }), {
      'content-type': 'application/problem+json',
    });
  }
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(value), { 'content-type': 'application/json', ...headers });
}

function send(res: ServerResponse, status: number, text?: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, ...(text === undefined ? {} : { 'content-length': Buffer.byteLength(text) }) });
  res.end(text);
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
