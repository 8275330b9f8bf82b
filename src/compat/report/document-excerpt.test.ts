import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { excerptAt } from './document-excerpt.js';
import { defaultSpecFile } from '../../paths.js';

const yaml = readFileSync(defaultSpecFile, 'utf8');
const lines = yaml.split('\n');

describe('excerptAt', () => {
  it.each([
    ['#/paths/~1pets~1%7BpetId%7D/get', /^ {4}get:$/],
    ['#/paths/~1pets/get/parameters/0', /^ {8}- /],
    ['#/components/schemas/Pet', /^ {4}Pet:$/],
    ['#/info/version', /^ {2}version:/],
  ])('finds %s on the line that writes it, with line numbers as in the file', (pointer, written) => {
    const found = excerptAt(yaml, pointer)!;
    expect(found, pointer).toBeDefined();
    expect(lines[found.line - 1]).toMatch(written);
    expect(found.lines[0]).toBe(lines[found.firstLine - 1]);
    expect(found.line - found.firstLine).toBeLessThanOrEqual(2);
    expect(found.lines.length).toBeLessThanOrEqual(16);
  });

  it('reads JSON as well, and a list item by its index', () => {
    const json = JSON.stringify(
      { paths: { '/pets': { get: { parameters: [{ name: 'a' }, { name: 'limit' }] } } } },
      null,
      2,
    );
    const found = excerptAt(json, '#/paths/~1pets/get/parameters/1')!;
    expect(json.split('\n')[found.line - 1]).toMatch(/^ {10}\{$/);
    expect(found.lines.join('\n')).toContain('"limit"');
  });

  it('is undefined for a place the text does not hold, and for text that does not parse', () => {
    expect(excerptAt(yaml, '#/paths/~1nowhere')).toBeUndefined();
    expect(excerptAt('a: [1, 2', '#/a')).toBeUndefined();
    expect(excerptAt(yaml, '#/paths/%E0%A4%A')).toBeUndefined();
  });
});
