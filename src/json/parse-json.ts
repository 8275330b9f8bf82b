import { toInteger } from './int64.js';

// Integers of 16 digits or more may lie beyond ±(2^53−1). Text without such a run of digits is parsed by the
// engine's JSON.parse (the fast path, almost every body); text with one by the exact parser below.
const LONG_DIGITS = /\d{16}/;

/**
 * JSON.parse that loses no integer: an integer written in plain digits beyond ±(2^53−1) becomes a bigint with
 * exactly the digits sent. Everything else is as JSON.parse gives it (same syntax errors, the last of duplicate
 * keys wins, `__proto__` is an ordinary own key, fractions and exponents are doubles). The one parser for JSON
 * from outside: request bodies, fixtures, state files, the contract suite's responses.
 * @example parseJson('{"categoryId":9223372036854775807}') // { categoryId: 9223372036854775807n }
 */
export function parseJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text) as unknown;
  return new ExactParser(text).parseDocument();
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** A strict RFC 8259 parser; only reached for text holding a long run of digits. */
class ExactParser {
  #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  parseDocument(): unknown {
    this.#skip();
    const value = this.#value();
    this.#skip();
    if (this.#at < this.#text.length) this.#fail('Unexpected non-whitespace character after JSON');
    return value;
  }

  #value(): unknown {
    const char = this.#text[this.#at];
    switch (char) {
      case '{':
        return this.#object();
      case '[':
        return this.#array();
      case '"':
        return this.#string();
      case 't':
        return this.#literal('true', true);
      case 'f':
        return this.#literal('false', false);
      case 'n':
        return this.#literal('null', null);
      default:
        if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.#number();
        return this.#fail(char === undefined ? 'Unexpected end of JSON input' : `Unexpected token '${char}'`);
    }
  }

  #object(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.#at++;
    this.#skip();
    if (this.#text[this.#at] === '}') {
      this.#at++;
      return object;
    }
    for (;;) {
      this.#skip();
      if (this.#text[this.#at] !== '"') this.#fail('Expected a double-quoted property name');
      const key = this.#string();
      this.#skip();
      if (this.#text[this.#at] !== ':') this.#fail("Expected ':' after property name");
      this.#at++;
      this.#skip();
      // As JSON.parse does (CreateDataProperty): an own property, even for `__proto__`, never the prototype.
      Object.defineProperty(object, key, {
        value: this.#value(),
        writable: true,
        enumerable: true,
        configurable: true,
      });
      this.#skip();
      const next = this.#text[this.#at++];
      if (next === '}') return object;
      if (next !== ',') this.#fail("Expected ',' or '}' after property value", -1);
    }
  }

  #array(): unknown[] {
    const array: unknown[] = [];
    this.#at++;
    this.#skip();
    if (this.#text[this.#at] === ']') {
      this.#at++;
      return array;
    }
    for (;;) {
      this.#skip();
      array.push(this.#value());
      this.#skip();
      const next = this.#text[this.#at++];
      if (next === ']') return array;
      if (next !== ',') this.#fail("Expected ',' or ']' after array element", -1);
    }
  }

  #string(): string {
    const start = this.#at;
    this.#at++;
    for (;;) {
      const code = this.#text.charCodeAt(this.#at);
      if (Number.isNaN(code)) this.#fail('Unterminated string in JSON');
      if (code === 0x22) break;
      if (code < 0x20) this.#fail('Bad control character in string literal');
      if (code === 0x5c) {
        const escape = this.#text[this.#at + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.#text.slice(this.#at + 2, this.#at + 6))) this.#fail('Bad Unicode escape');
          this.#at += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) this.#fail('Bad escaped character');
        this.#at += 2;
        continue;
      }
      this.#at++;
    }
    this.#at++;
    // The literal is checked above; the engine decodes its escapes.
    return JSON.parse(this.#text.slice(start, this.#at)) as string;
  }

  #number(): number | bigint {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.#text.slice(this.#at, this.#at + 4096));
    if (!match) return this.#fail('No number after minus sign in JSON');
    const token = match[0];
    if (token.length === 4096) this.#fail('Number too long');
    this.#at += token.length;
    // Plain digits are an integer, kept exactly; a fraction or an exponent makes a double, as in JSON.parse.
    return match[2] === undefined && match[3] === undefined ? toInteger(token) : Number(token);
  }

  #literal<T>(word: string, value: T): T {
    if (this.#text.startsWith(word, this.#at)) {
      this.#at += word.length;
      return value;
    }
    return this.#fail(`Unexpected token '${this.#text[this.#at]}'`);
  }

  #skip(): void {
    while (WHITESPACE.has(this.#text.charCodeAt(this.#at))) this.#at++;
  }

  #fail(message: string, offset = 0): never {
    throw new SyntaxError(`${message} at position ${this.#at + offset} (JSON)`);
  }
}
