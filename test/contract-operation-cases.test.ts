import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSession } from '../src/contract/base/session.js';
import { runCase } from '../src/contract/engine/run-case.js';
import { operationCases } from '../src/contract/generate/operation-cases.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer } from '../src/mock/http/server.js';

/**
 * The generated cases of every operation without a path parameter beyond v1's (here the v1.1 document's listOrders,
 * whose status and sort are broken too, placeOrder and getInventory): the mock on v1.1 passes them; a front that refuses valid orders, or one that takes
 * orders without checking them, fails the one check its fault breaks.
 */
const KEY = 'operation-cases-key-7c1d';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

type Fault = 'refuses-valid-order' | 'accepts-invalid-order' | 'checks-pet-exists';

let mock: Awaited<ReturnType<typeof createMockServer>>;
beforeAll(async () => {
  mock = await createMockServer({ apiKeys: [KEY], spec: v11 });
});
afterAll(() => mock.close());

/** A front passing every request to the mock, but for its fault on POST /store/orders. */
async function startFront(fault?: Fault) {
  const server = createServer((req, res) => void forward(req, res, fault));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function forward(req: IncomingMessage, res: ServerResponse, fault: Fault | undefined): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: string | undefined = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
  if (req.method === 'POST' && req.url?.startsWith('/v1/store/orders') && body !== undefined) {
    const order = parsed(body);
    if (fault === 'refuses-valid-order' && typeof order?.quantity === 'number' && order.quantity > 1) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'invalid_body', message: 'quantity: too many', status: 400 }));
      return;
    }
    // A referential check the document leaves open: an order for a pet the store does not have is refused.
    if (fault === 'checks-pet-exists' && order && !(await petExists(req, order.petId))) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'invalid_body', message: 'petId: no such pet', status: 400 }));
      return;
    }
    // Takes whatever it is sent, as a server that validates nothing: what it stores is made up.
    if (fault === 'accepts-invalid-order') body = JSON.stringify({ petId: 1, quantity: 1 });
  }
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
  ) as Record<string, string>;
  const answer = await fetch(`${mock.origin}${req.url}`, { method: req.method, headers, body });
  const text = Buffer.from(await answer.arrayBuffer());
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) out[name] = value;
  });
  res.writeHead(answer.status, out);
  res.end(text);
}

async function petExists(req: IncomingMessage, petId: unknown): Promise<boolean> {
  if (typeof petId !== 'number' && typeof petId !== 'string') return false;
  const answer = await fetch(`${mock.url}/pets/${String(petId)}`, {
    headers: { authorization: req.headers.authorization ?? '' },
  });
  await answer.arrayBuffer();
  return answer.status === 200;
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Each generated operation case against the target: `passed`, or `failed: <checks>`. */
async function judge(fault?: Fault): Promise<Record<string, string>> {
  const front = await startFront(fault);
  const session = await createSession({
    baseUrl: front.url,
    apiKey: KEY,
    spec: await loadSpec(v11),
    runId: 'operations',
    seed: 7,
  });
  try {
    const verdicts: Record<string, string> = {};
    for (const contractCase of operationCases(session.spec)) {
      const result = await runCase(session, contractCase);
      const failed = [...new Set(result.failures.map((f) => f.check))].join(',');
      verdicts[contractCase.id] = result.status === 'failed' ? `failed: ${failed}` : result.status;
      if (!fault) expect(result.requests.length, contractCase.id).toBeGreaterThan(0);
    }
    return verdicts;
  } finally {
    await session.dispatcher.close();
    await front.close();
  }
}

describe('generated cases of every operation without a path parameter', () => {
  it('cover the v1.1 operations v1 has no cases for, and the mock on v1.1 passes every one', async () => {
    expect(await judge()).toEqual({
      'generated.valid-accepted/listOrders': 'passed',
      'generated.invalid-rejected/listOrders': 'passed',
      'generated.valid-accepted/placeOrder': 'passed',
      'generated.invalid-rejected/placeOrder': 'passed',
      'generated.valid-accepted/getInventory': 'passed',
    });
  });

  it('are none on the v1 document (its three operations have cases of their own)', async () => {
    expect(operationCases(await loadSpec())).toEqual([]);
  });

  it('pass a target that refuses an order for a pet it does not have: the orders refer to listed pets', async () => {
    expect(Object.values(await judge('checks-pet-exists'))).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
  });

  it.each([
    ['refuses-valid-order', 'generated.valid-accepted/placeOrder', 'failed: generated.valid-accepted'],
    ['accepts-invalid-order', 'generated.invalid-rejected/placeOrder', 'failed: generated.invalid-rejected'],
  ] as const)('catch a target that %s, under its own check only', async (fault, caseId, verdict) => {
    const verdicts = await judge(fault);
    expect(verdicts[caseId]).toBe(verdict);
    const others = Object.entries(verdicts).filter(([id]) => id !== caseId);
    expect(others.every(([, status]) => status === 'passed')).toBe(true);
  });
});
