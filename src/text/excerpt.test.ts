import { describe, expect, it } from 'vitest';
import { escapeControls, escapeText, excerpt } from './excerpt.js';

describe('escapeText', () => {
  it.each([
    ['a newline and a workflow command', 'ok\n::error ::fake', 'ok\\n::error ::fake'],
    ['CR', 'a\rb', 'a\\rb'],
    ['ANSI colour', '\u001b[32m✓\u001b[0m', '\\x1b[32m✓\\x1b[0m'],
    ['NUL and DEL', 'a\u0000b\u007f', 'a\\x00b\\x7f'],
    ['C1 NEL', 'a\u0085b', 'a\\x85b'],
    ['line separator and bidi override', 'a\u2028b\u202ec', 'a\\u2028b\\u202ec'],
    ['a backslash (so an escape cannot be faked)', 'a\\nb', 'a\\\\nb'],
    ['plain text', 'name: "Rex" <ok> | fine', 'name: "Rex" <ok> | fine'],
  ])('escapes %s', (_, text, want) => {
    expect(escapeText(text)).toBe(want);
    expect(escapeText(text)).not.toMatch(/[\n\r\u001b]/);
  });
});

describe('excerpt', () => {
  it('bounds long text and says how long it was', () => {
    expect(excerpt('x'.repeat(500), 10)).toBe('xxxxxxxxxx… (500 characters)');
  });
  it('never splits a surrogate pair', () => {
    expect(excerpt(`${'a'.repeat(9)}😀tail`, 10)).toBe(`${'a'.repeat(9)}… (15 characters)`);
  });
});

describe('escapeControls', () => {
  it('escapes control characters and keeps backslashes, so it can run twice', () => {
    const once = escapeControls("curl -d 'it'\\''s'\n\u001b[2J");
    expect(once).toBe("curl -d 'it'\\''s'\\n\\x1b[2J");
    expect(escapeControls(once)).toBe(once);
  });
});
