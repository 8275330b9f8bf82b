import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type Spec } from '../../openapi/load-spec.js';
import { bearerSchemeName, createDocsDocument, STATELESS_HEADING } from './docs-document.js';

let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});

describe('createDocsDocument', () => {
  it.each([
    ['the Host the browser used', 'http', '127.0.0.1:4010', '', 'http://127.0.0.1:4010/v1'],
    ['a name and a mount path', 'http', 'localhost:5000', '/mock', 'http://localhost:5000/mock/v1'],
    ['an IPv6 literal', 'http', '[::1]:4010', '', 'http://[::1]:4010/v1'],
    ['no Host at all', 'http', undefined, '', '/v1'],
    ['a Host that is not a host', 'http', 'evil"><script>', '', '/v1'],
    ['a Host with a path', 'http', 'a.test/x', '/m', '/m/v1'],
  ])('puts the mock as the only server for %s', (_, protocol, host, mountPath, url) => {
    const document = JSON.parse(createDocsDocument()(spec, protocol, host, mountPath));
    expect(document.servers).toEqual([{ url, description: 'this petstore-kit mock' }]);
  });

  it('keeps the document as written otherwise, $refs included, so Swagger UI shows schema names', () => {
    const document = JSON.parse(createDocsDocument()(spec, 'http', 'h:1', ''));
    expect(Object.keys(document.paths)).toEqual(Object.keys(spec.source.paths));
    expect(JSON.stringify(document)).toContain('"$ref":"#/components/schemas/Pet"');
    expect(document.info).toEqual(spec.source.info);
  });

  it('renders once per document and host, and afresh for a reloaded document', async () => {
    const render = createDocsDocument();
    const copy: Spec = { ...spec, source: structuredClone(spec.source) };
    const title = (json: string) => JSON.parse(json).info.title;
    expect(title(render(copy, 'http', 'h:1', ''))).toBe('Petstore API');
    copy.source.info.title = 'Edited after rendering';
    expect(title(render(copy, 'http', 'h:1', ''))).toBe('Petstore API'); // served from the cache
    expect(title(render(copy, 'http', 'h:2', ''))).toBe('Edited after rendering'); // another Host renders anew
    const reloaded = await loadSpec({ ...spec.source, info: { ...spec.source.info, title: 'Reloaded' } });
    expect(title(render(reloaded, 'http', 'h:1', ''))).toBe('Reloaded');
  });

  it('stays bounded however many Host headers a client invents', () => {
    const render = createDocsDocument();
    for (let i = 0; i < 100; i++) expect(JSON.parse(render(spec, 'http', `h${i}.test`, '')).servers[0].url).toBe(`http://h${i}.test/v1`);
  });
});

describe('bearerSchemeName', () => {
  it('finds the http bearer scheme', () => {
    expect(bearerSchemeName(spec)).toBe('bearerAuth');
  });
});

describe('the operations answered without state', () => {
  it('are listed under info.description and noted on each, with the reason, as the banner lists them', async () => {
    const v11 = await loadSpec(new URL('../../../test/fixtures/documents/petstore-v1.1.yaml', import.meta.url).pathname);
    const [inventory] = v11.resources.operations.filter((operation) => operation.role === 'none');
    expect(inventory).toMatchObject({ method: 'get', path: '/store/inventory', operationId: 'getInventory' });
    const document = JSON.parse(createDocsDocument()(v11, 'http', 'h:1', ''));
    expect(document.info.description).toContain(
      `**petstore-kit mock.** ${STATELESS_HEADING}:\n\n- \`GET /store/inventory\` (\`getInventory\`): ${inventory!.reason}`,
    );
    expect(document.paths['/store/inventory'].get.description).toBe(
      `**petstore-kit mock:** answered from the document's examples, without state: ${inventory!.reason}.`,
    );
    // Operations with a role are shown as written.
    expect(document.paths['/pets']).toEqual(v11.source.paths['/pets']);
    expect(document.paths['/store/orders']).toEqual(v11.source.paths['/store/orders']);
  });

  it('add nothing to a document whose every operation has a role (v1)', () => {
    const document = JSON.parse(createDocsDocument()(spec, 'http', 'h:1', ''));
    expect(document.info).toEqual(spec.source.info);
    expect(JSON.stringify(document)).not.toContain('without state');
  });
});
