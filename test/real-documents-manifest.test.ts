import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  corpusFolder,
  MANIFEST,
  NO_CORPUS,
  packagePath,
  readManifest,
  type CorpusEntry,
} from './support/real-documents/corpus.js';
import { documentFeatures, REQUIRED_FEATURES } from './support/real-documents/document-features.js';
import { readDocument } from './support/real-documents/read-document.js';

/**
 * The corpus of public OpenAPI documents (issue 52 item 7): what the manifest says of each file is what the file
 * holds — its SHA-256 (so each document is provably the unedited one of its origin commit), its size, its `openapi`
 * and its features — and together they cover what the issue asks. `UPDATE_REAL_DOCUMENTS_MANIFEST=1` writes the
 * measured fields into corpus.json instead of comparing (then read the diff: a changed SHA-256 is a changed file).
 */
const entries = readManifest();
const folder = corpusFolder(entries);
const updating = process.env.UPDATE_REAL_DOCUMENTS_MANIFEST === '1';

const PACKAGE_JSON = fileURLToPath(new URL('../package.json', import.meta.url));

function measured(path: string) {
  const bytes = readFileSync(path);
  const document = readDocument(path);
  return {
    openapi: String(document.openapi),
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    features: documentFeatures(document),
  } satisfies Partial<CorpusEntry>;
}

describe('the real-documents manifest', () => {
  it('covers 3.0 and 3.1, 1 KB to over 2 MB, and every feature issue 52 names', () => {
    expect(entries.length).toBeGreaterThanOrEqual(24);
    expect(entries.some((entry) => entry.openapi.startsWith('3.0.'))).toBe(true);
    expect(entries.some((entry) => entry.openapi.startsWith('3.1.'))).toBe(true);
    expect(Math.min(...entries.map((entry) => entry.bytes))).toBeLessThanOrEqual(1024);
    expect(entries.filter((entry) => entry.bytes > 2_000_000).length).toBeGreaterThanOrEqual(2);
    const covered = new Set(entries.filter((entry) => !entry.invalid).flatMap((entry) => entry.features));
    expect(REQUIRED_FEATURES.filter((feature) => !covered.has(feature))).toEqual([]);
  });

  it("the folder's README gives the sizes the manifest measured", () => {
    const readme = readFileSync(join(dirname(MANIFEST), 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const megabytes = (entry: CorpusEntry) => `${(entry.bytes / 1e6).toFixed(1)} MB`;
    // Named by their owner, capitalised: `box/box-openapi` is Box.
    const owner = (entry: CorpusEntry) => entry.origin.repository.split('/')[0]!.replace(/^./, (c) => c.toUpperCase());
    const large = entries.filter((entry) => entry.large).map((entry) => `${owner(entry)} ${megabytes(entry)}`);
    expect(readme).toContain(`large public API descriptions (${large.join(', ')})`);
    const smallest = Math.min(...entries.map((entry) => entry.bytes));
    const largest = entries.reduce((a, b) => (a.bytes > b.bytes ? a : b));
    expect(readme).toContain(`${smallest} bytes to ${megabytes(largest)}`);
    const packaged = entries.filter((entry) => entry.package);
    const identical = packaged.filter((entry) => entry.package!.sha256 === entry.sha256).length;
    expect(readme).toContain(`${packaged.length} of them are also read from an npm package`);
    expect(readme).toContain(
      `${identical} are readme's own files, byte for byte; ${packaged.length - identical} (OAI's`,
    );
  });

  it('names for each document its origin commit, a licence and, if invalid, the sentence it breaks', () => {
    for (const entry of entries) {
      const { repository, commit, path, url } = entry.origin;
      expect(entry.file).toBe(`${repository.replace('/', '.')}/${path}`);
      expect(commit).toMatch(/^[0-9a-f]{40}$/);
      expect(url).toBe(`https://github.com/${repository}/blob/${commit}/${path}`);
      expect(entry.licence).toMatch(/^[A-Za-z0-9.-]+$/);
      if (entry.invalid !== undefined) expect(entry.invalid).toMatch(/OAS 3\.\d\.\d §[\d.]+/);
    }
  });

  // Read in every clone: the pinned devDependency is installed wherever the tests run.
  const packaged = entries.filter((entry) => entry.package);
  it.each(packaged.map((entry) => [entry.file, entry] as const))(
    '%s: its package copy is as the manifest says',
    (_, entry) => {
      const copy = entry.package!;
      const { devDependencies } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as {
        devDependencies: Record<string, string>;
      };
      expect(devDependencies[copy.name], 'pinned exactly, so the bytes cannot move').toBe(copy.version);
      expect(copy.licence).toMatch(/^[A-Za-z0-9.-]+$/);
      const found = measured(packagePath(copy));
      // The same document: the origin's `openapi` and features, in the package's bytes.
      expect(found).toEqual({
        openapi: entry.openapi,
        bytes: copy.bytes,
        sha256: copy.sha256,
        features: entry.features,
      });
    },
    60_000,
  );

  describe.skipIf(!folder)(folder ? `the files in ${folder}` : NO_CORPUS, () => {
    it.each(entries.map((entry) => [entry.file, entry] as const))(
      '%s is as the manifest says',
      (_, entry) => {
        const found = measured(join(folder!, entry.file));
        if (updating) Object.assign(entry, found);
        else {
          const { openapi, bytes, sha256, features } = entry;
          expect(found).toEqual({ openapi, bytes, sha256, features });
        }
      },
      // A hang detector, not a measure: Asana's 3 MB of YAML parsed on a busy machine.
      60_000,
    );

    it.runIf(updating)('writes the measured fields into corpus.json', () => {
      const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { documents: CorpusEntry[] };
      writeFileSync(MANIFEST, `${JSON.stringify({ ...manifest, documents: entries }, null, 2)}\n`);
    });
  });
});
