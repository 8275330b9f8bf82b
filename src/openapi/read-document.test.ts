import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDocument } from './read-document.js';
import { loadSpec } from './load-spec.js';
import { DocumentError } from '../input-errors.js';
import { DOCUMENT_LIMITS } from './document-limits.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-read-document-'));
const head = 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\n';

/** The 1 KB "billion laughs": nine levels of nine aliases, 387 million nodes once expanded. */
function billionLaughs(): string {
  const lines = [head, 'paths: {}', 'x-lol:', '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let level = 1; level < 9; level += 1)
    lines.push(`  a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

/** Schemas S0…S{n}, each naming the next at `refsEach` places: a chain (1) or a "$ref bomb" (2). */
function chainOfSchemas(n: number, refsEach: number): string {
  const schemas = Array.from({ length: n }, (_, i) => {
    const props = Array.from({ length: refsEach }, (_, k) => `p${k}: {$ref: "#/components/schemas/S${i + 1}"}`);
    return `    S${i}: {type: object, properties: {${props.join(', ')}}}`;
  });
  return `${head}paths: {}\ncomponents:\n  schemas:\n${schemas.join('\n')}\n    S${n}: {type: string}\n`;
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocumentError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message).not.toMatch(/call stack/i);
  return message;
}

describe('readDocument: a hostile document is refused in one line', () => {
  it.each([
    [
      'a billion laughs (nine levels of nine YAML aliases)',
      () => billionLaughs(),
      /more than 2,000,000 nodes.*billion laughs/,
    ],
    [
      'a chain of 5,000 $refs',
      () => chainOfSchemas(5000, 1),
      /nests deeper than 200 levels once its \$refs are followed/,
    ],
    [
      'YAML nested 100,000 levels',
      () => `${head}paths: {}\nx-deep: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
      /not YAML or JSON: nesting exceeded maxDepth/,
    ],
    [
      'JSON nested 1,000,000 levels',
      () =>
        `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{},"x":${'['.repeat(1e6)}${']'.repeat(1e6)}}`,
      /the document nests deeper than 200 levels/,
    ],
    [
      'a document over 16 MiB',
      () => `${head}paths: {}\nx-big: "${'a'.repeat(DOCUMENT_LIMITS.bytes)}"\n`,
      /larger than 16 MiB/,
    ],
  ])('%s', async (name, text, message) => {
    const path = file(`${name.replace(/\W+/g, '-')}.yaml`, text());
    expect(await refusal(readDocument({ path }))).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
    );
    expect(await refusal(readDocument({ path }))).toMatch(message);
    // The same bounds whoever reads it: the document model (mock, proxy, runner, fixtures) and text from stdin.
    expect(await refusal(loadSpec(path))).toMatch(message);
  });

  it('bounds a file a $ref names as it bounds the document (a $ref to /dev/zero ends)', async () => {
    const bomb = file('bomb-part.yaml', billionLaughs());
    const main = `${head}paths: {}\ncomponents:\n  schemas:\n    Lol: {$ref: "${bomb}#/x-lol"}\n`;
    expect(await refusal(readDocument({ path: file('names-bomb.yaml', main) }))).toMatch(/billion laughs/);
    const zero = `${head}paths: {}\ncomponents:\n  schemas:\n    Zero: {$ref: "/dev/zero"}\n`;
    expect(await refusal(readDocument({ path: file('names-zero.yaml', zero) }))).toMatch(/\/dev\/zero/);
  });

  it('bounds a document fetched from a URL', async () => {
    const server = createServer((_, res) => res.end(billionLaughs()));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/openapi.yaml`;
    try {
      expect(await refusal(readDocument({ url }))).toMatch(/billion laughs/);
      expect(await refusal(loadSpec(url))).toMatch(/billion laughs/);
    } finally {
      server.close();
    }
  });

  it('reads a recursive schema as an object that contains itself', async () => {
    const recursive = `${head}paths: {}\ncomponents:\n  schemas:\n    Node: {type: object, properties: {children: {type: array, items: {$ref: "#/components/schemas/Node"}}}}\n`;
    const loaded = await readDocument({ path: file('recursive.yaml', recursive) });
    const node = loaded.resolved.components!.schemas!.Node as { properties: { children: { items: unknown } } };
    expect(node.properties.children.items).toBe(node);
    expect(loaded.pointerOf.get(node)).toBe('#/components/schemas/Node');
  });

  it('reads a $ref bomb (each of 40 schemas names the next twice) as it weighs: one object per schema', async () => {
    const loaded = await readDocument({ path: file('bomb.yaml', chainOfSchemas(40, 2)) });
    const schemas = loaded.resolved.components!.schemas! as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas)).toHaveLength(41);
    const first = Object.values(schemas.S0!.properties!);
    expect(first[0]).toBe(first[1]);
  });

  it('reads the same document as before: a shared definition is measured once, not refused', async () => {
    // 30 schemas each naming the next once, used from 200 places: 6,000 references, a small expansion.
    const uses = Array.from({ length: 200 }, (_, i) => `    U${i}: {$ref: "#/components/schemas/S0"}`).join('\n');
    const loaded = await readDocument({ path: file('shared.yaml', `${chainOfSchemas(30, 1)}${uses}\n`) });
    expect(Object.keys(loaded.resolved.components!.schemas!)).toHaveLength(231);
    expect((await readDocument({ label: '-', text: `${head}paths: {}\n` })).bundled).toEqual({
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      paths: {},
    });
  });
});

describe('readDocument: the OpenAPI 3.1 schema as the OpenAPI Initiative now publishes it', () => {
  // learn.openapis.org's tictactoe example: RFC 9110 §11.1 scheme names are case-insensitive.
  it.each(['Bearer', 'BEARER', 'bearer'])('reads an http scheme %s with a bearerFormat', async (scheme) => {
    const text =
      'openapi: 3.1.0\ninfo: {title: x, version: "1"}\ncomponents:\n  securitySchemes:\n' +
      `    jwt: {type: http, scheme: ${scheme}, bearerFormat: JWT}\n`;
    const loaded = await readDocument({ label: '-', text });
    expect(loaded.dialect.version).toBe('3.1');
  });

  it('still refuses a bearerFormat that is not a string', async () => {
    const text =
      'openapi: 3.1.0\ninfo: {title: x, version: "1"}\ncomponents:\n  securitySchemes:\n' +
      '    jwt: {type: http, scheme: Bearer, bearerFormat: 5}\n';
    expect(await refusal(readDocument({ label: '-', text }))).toMatch(/bearerFormat must be a string/);
  });
});
