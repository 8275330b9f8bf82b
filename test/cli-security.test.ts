import { describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { runCli, startCli } from './support/cli.js';
import { writeSecurityDocument } from './fixtures/security-documents.js';

/** The command line on documents with other security schemes: the mock's banner, the runner's key check. */
describe('petstore-kit mock on a document with other schemes', () => {
  it('prints each scheme, what is not enforced, and a try line sending the key as the scheme says', async () => {
    const { child, match, output } = await startCli(
      ['mock', '--port', '0', '--spec', writeSecurityDocument('mutual-tls')],
      /listening on (http:\/\/\S+)[\s\S]*try: (.*)\n/,
      { PETSTORE_API_KEYS: '' },
    );
    try {
      const [, url, tryLine] = match;
      expect(output()).toContain('  security: mtls (not enforced: mutualTLS is a client certificate');
      expect(output()).toContain('header (apiKey in header X-API-Key)');
      expect(output()).toMatch(/ {2}Not enforced: mtls \(mutualTLS is .*\); served without it\./);
      // The list requires mutualTLS alone: served without credentials, and the try line sends none.
      expect(tryLine).toBe(`curl '${url}/notes?limit=2'`);
      expect((await fetch(`${url}/notes?limit=2`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });

  it("sends the key in the try line where the document's scheme puts it", async () => {
    const { child, match } = await startCli(
      ['mock', '--port', '0', '--spec', writeSecurityDocument('apikey-query')],
      /listening on (http:\/\/\S+)[\s\S]*try: (.*)\n/,
      { PETSTORE_API_KEYS: '' },
    );
    try {
      const [, url, tryLine] = match;
      expect(tryLine).toBe(`curl '${url}/notes?limit=2&appid=petstore-dev-key'`);
      expect((await fetch(`${url}/notes?limit=2&appid=petstore-dev-key`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });
});

describe('petstore-kit contract with a user:password key', () => {
  it('stops at once, in one line, where an operation needs a token, never echoing the key', async () => {
    const result = await runCli(['contract', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'alice:s3cret-pw'], {
      PETSTORE_API_KEY: '',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'the API key is user:password, an HTTP Basic credential (RFC 7617), but listPets requires the scheme "bearerAuth", which takes a token',
    );
    expect(result.stderr + result.stdout).not.toContain('s3cret');
  });
});
