import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../openapi/load-spec.js';
import { loadFastCheck } from './fast-check.js';
import { FORMATS } from './formats.js';
import { mutationsOf } from './invalid-variants.js';
import type { SchemaLike } from './json-schema.js';
import { formatTable, keywordTable, KEYWORDS } from './keyword-table.js';
import { PROBE_TRIES } from './pattern-strings.js';
import { formatEnforced } from './schema-check.js';
import { validValues } from './valid-arbitrary.js';

await loadFastCheck();
const contractDocs = readFileSync(fileURLToPath(new URL('../../../docs/contract.md', import.meta.url)), 'utf8');

describe('the keyword and format tables of docs/contract.md', () => {
  it('are the code’s own tables, as they are, and the pattern fallback its own number of tries', () => {
    expect(contractDocs).toContain(keywordTable());
    expect(contractDocs).toContain(formatTable());
    expect(contractDocs).toContain(`When ${PROBE_TRIES} seeded tries`);
  });

  it.each(KEYWORDS.map((row) => [row.keyword, row] as const))('%s: each row says what the generators do', (_, row) => {
    const values = validValues(row.example);
    const labels = mutationsOf(row.example as SchemaLike).map((m) => m.label);
    if (row.valid.startsWith('none')) {
      expect(values.ok).toBe(false);
      return;
    }
    expect(values.ok).toBe(true);
    if (row.broken)
      expect(
        labels.some((label) => label.includes(row.broken!)),
        labels.join('\n'),
      ).toBe(true);
    // readOnly: nothing about the property a request leaves out.
    else expect(labels.filter((label) => label.startsWith('body.'))).toEqual([]);
  });
});

describe('"checked by the mock" in the format table', () => {
  it('is what the validator the mock uses does: a broken value refused where checked, any text taken where not', async () => {
    const names = Object.keys(FORMATS);
    const schemas = Object.fromEntries(names.map((format, i) => [`F${i}`, { type: FORMATS[format]!.type, format }]));
    const spec = await loadSpec({
      openapi: '3.0.3',
      info: { title: 'formats', version: '1' },
      paths: {},
      components: { schemas },
    });
    const checked = names.map((format, i) => {
      const validate = spec.schema(`F${i}`);
      const entry = FORMATS[format]!;
      // The first value the table gives as breaking the format (any text where it gives none): refused or taken.
      if (entry.type === 'string') return [format, !validate(entry.broken?.[0] ?? 'contract any text')] as const;
      return [format, !validate(format === 'int32' ? 2 ** 31 : format === 'int64' ? 2n ** 63n : 1e308)] as const;
    });
    expect(Object.fromEntries(checked)).toEqual(
      Object.fromEntries(names.map((format) => [format, formatEnforced(format)])),
    );
  });
});
