import { describe, expect, it } from 'vitest';
import { upstreamHeaders } from './forward-request.js';

describe('upstreamHeaders', () => {
  it('drops hop-by-hop headers and those Connection names, keeps end-to-end ones and Authorization, adds Via', () => {
    const sent = upstreamHeaders({
      host: 'proxy.local:4010',
      connection: 'keep-alive, X-Trace-Hop',
      'x-trace-hop': '1',
      'keep-alive': 'timeout=5',
      te: 'trailers',
      'transfer-encoding': 'chunked',
      'content-length': '12',
      'proxy-authorization': 'Basic eDp5',
      expect: '100-continue',
      authorization: 'Bearer k-123',
      'accept-encoding': 'zstd',
      'x-request-id': 'abc',
      via: '1.1 corp-gw',
    });
    expect(sent).toEqual({
      authorization: 'Bearer k-123',
      'x-request-id': 'abc',
      'accept-encoding': 'gzip, deflate, br',
      via: '1.1 corp-gw, 1.1 petstore-kit',
    });
  });

  // A client's own forwarding claims went upstream unchecked, and the proxy added none.
  it("drops the client's forwarding claims and states its own: Forwarded (RFC 7239) and X-Forwarded-*", () => {
    const sent = upstreamHeaders(
      {
        host: 'proxy.local:4010',
        'x-forwarded-for': '6.6.6.6',
        'x-real-ip': '6.6.6.6',
        forwarded: 'for=6.6.6.6',
        'x-forwarded-host': 'evil',
        authorization: 'Bearer k',
      },
      { address: '::ffff:10.1.2.3', host: 'proxy.local:4010', proto: 'http' },
    );
    expect(sent).toMatchObject({
      'x-forwarded-for': '10.1.2.3',
      'x-forwarded-host': 'proxy.local:4010',
      'x-forwarded-proto': 'http',
      forwarded: 'for=10.1.2.3;host="proxy.local:4010";proto=http',
    });
    expect(sent['x-real-ip']).toBeUndefined();
    expect(upstreamHeaders({}, { address: '::1', proto: 'https' }).forwarded).toBe('for="[::1]";proto=https');
  });
});
