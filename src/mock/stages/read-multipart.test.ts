import { describe, expect, it } from 'vitest';
import { readMultipart } from './read-multipart.js';
import { failure } from '../../../test/support/refusal.js';

const TYPE = 'multipart/form-data; boundary=XyZ';
const bytes = (text: string) => new TextEncoder().encode(text);
const part = (headers: string, content: string) => `--XyZ\r\n${headers}\r\n\r\n${content}\r\n`;
const CLOSE = '--XyZ--\r\n';

describe('readMultipart (multipart/form-data, RFC 7578)', () => {
  it('reads fields, a JSON part and a file, with their types', () => {
    const body =
      'a preamble, ignored\r\n' +
      part('Content-Disposition: form-data; name="name"', 'Fern') +
      part('content-disposition: form-data; name="care"\r\nContent-Type: application/json', '{"water":2}') +
      part(
        'Content-Disposition: form-data; name="leaflet"; filename="a.txt"\r\nContent-Type: text/plain',
        'line 1\r\nline 2',
      ) +
      CLOSE +
      'an epilogue, ignored';
    expect(readMultipart(bytes(body), TYPE)).toEqual([
      { name: 'name', value: 'Fern', type: undefined },
      { name: 'care', value: '{"water":2}', type: 'application/json' },
      { name: 'leaflet', value: 'line 1\r\nline 2', type: 'text/plain' },
    ]);
  });

  it('keeps a binary file byte for byte, one character per byte', () => {
    const head = bytes(
      `--XyZ\r\nContent-Disposition: form-data; name="photo"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const tail = bytes(`\r\n${CLOSE}`);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    const [field] = readMultipart(new Uint8Array([...head, ...png, ...tail]), TYPE);
    expect([...field!.value].map((c) => c.charCodeAt(0))).toEqual([...png]);
  });

  it('takes a quoted boundary and a part without headers', () => {
    const body = `--a b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--a b--`;
    expect(readMultipart(bytes(body), 'multipart/form-data; boundary="a b"')).toEqual([
      { name: 'x', value: '1', type: undefined },
    ]);
    expect(readMultipart(bytes(CLOSE), TYPE)).toEqual([]);
  });

  it.each([
    [
      'no boundary',
      'multipart/form-data',
      part('Content-Disposition: form-data; name="x"', '1') + CLOSE,
      /needs a boundary parameter/,
    ],
    ['no delimiter', TYPE, 'name=Fern', /it has no delimiter line "--XyZ"/],
    [
      'truncated in a part',
      TYPE,
      part('Content-Disposition: form-data; name="x"', '1').slice(0, -4),
      /part 1 ends before the closing delimiter "--XyZ--" \(a truncated upload\?\)/,
    ],
    [
      'truncated after a part',
      TYPE,
      part('Content-Disposition: form-data; name="x"', '1') + '--XyZ',
      /it ends before its closing delimiter/,
    ],
    [
      'no name',
      TYPE,
      part('Content-Disposition: form-data', '1') + CLOSE,
      /part 1 has no Content-Disposition: form-data with a name/,
    ],
    [
      'not form-data',
      TYPE,
      part('Content-Disposition: attachment; name="x"', '1') + CLOSE,
      /part 1 has no Content-Disposition/,
    ],
    [
      'headers without end',
      TYPE,
      '--XyZ\r\nContent-Disposition: form-data; name="x"\r\n--XyZ--',
      /part 1's headers do not end in a blank line/,
    ],
  ])('refuses a body with %s: a 400 saying what is wrong', (_, type, body, message) => {
    const answer = failure(() => readMultipart(bytes(body), type));
    expect(answer).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(answer.message).toMatch(message);
  });

  it('refuses a text field that is not UTF-8, naming it', () => {
    const head = bytes('--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\n');
    const body = new Uint8Array([...head, 0xff, ...bytes(`\r\n${CLOSE}`)]);
    expect(failure(() => readMultipart(body, TYPE)).message).toBe(
      `the multipart body's part "name" is not UTF-8 text (RFC 7578 §5.1)`,
    );
  });
});
