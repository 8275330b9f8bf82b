import { describe, expect, it } from 'vitest';
import { parseArgs } from 'node:util';
import { describeError } from './describe-error.js';

function listenError(port: number) {
  return Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${port}`), {
    code: 'EADDRINUSE',
    errno: -98,
    syscall: 'listen',
    address: '127.0.0.1',
    port,
  });
}

describe('describeError', () => {
  it.each([
    [
      'a busy port',
      listenError(4011),
      'the port is already in use (127.0.0.1:4011); choose another with --port N (-p N), or --port 0 for a free one',
    ],
    [
      "a busy 4010, Prism's default too",
      listenError(4010),
      "the port is already in use (127.0.0.1:4010) (4010 is also Prism's default: is a Prism mock or another petstore-kit running?); choose another with --port N (-p N), or --port 0 for a free one",
    ],
  ])('says what to do about %s', (_, error, want) => {
    expect(describeError(error)).toBe(want);
  });

  it("points an unknown flag at the command's --help, in one sentence", () => {
    const error = (() => {
      try {
        parseArgs({ args: ['--prot', '4010'], options: { port: { type: 'string' } }, strict: true });
      } catch (caught) {
        return caught;
      }
    })();
    expect(describeError(error, 'mock')).toBe(`Unknown option '--prot'; see "petstore-kit mock --help"`);
  });
});
