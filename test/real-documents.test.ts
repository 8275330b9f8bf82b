import { describe, it } from 'vitest';
import { locateAll, NO_CORPUS, readManifest } from './support/real-documents/corpus.js';
import { checkExpectation } from './support/real-documents/check-expectation.js';
import { EXPECTATIONS } from './support/real-documents/expectations.js';
import { tryDocument } from './support/real-documents/try-document.js';

/**
 * The mock on public OpenAPI documents nobody here wrote (issue 52 item 7; test/fixtures/real-documents/): for each,
 * it starts, and every answer to a generated valid request for every operation validates against the document,
 * judged by a reader of the test's own (test/support/real-documents/) — or an invalid document is refused in one
 * line. What happens today, known failures included, is the expectation table; the large documents are in
 * real-documents-large.test.ts. A document with a copy in an installed package (@readme/oas-examples) runs in
 * every clone; one only fetched runs where the corpus folder is.
 */
const { present, absent } = locateAll(readManifest().filter((entry) => !entry.large));

describe.skipIf(present.length === 0)('real documents', () => {
  it.each(present.map(({ entry, path, from }) => [entry.file, from, path] as const))(
    '%s (%s copy)',
    async (file, _, path) => {
      checkExpectation(file, EXPECTATIONS[file], await tryDocument(path));
    },
    // A hang detector, not a measure: star-trek's 120 operations on a busy 2-core machine.
    120_000,
  );
});

describe.skipIf(absent.length === 0)(NO_CORPUS, () => {
  it.skip.each(absent.map((entry) => [entry.file] as const))('%s', () => {});
});
