import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Feature } from './document-features.js';

/** Where a document came from: a public repository, the commit and the path in it. */
export interface Origin {
  repository: string;
  commit: string;
  path: string;
  url: string;
}

/** One entry of test/fixtures/real-documents/corpus.json. */
export interface CorpusEntry {
  /** Relative to the corpus folder: `<owner>.<repository>/<path in the repository>`. */
  file: string;
  origin: Origin;
  /** SPDX identifier of the licence the repository (or the document's own `info.license`) gives it. */
  licence: string;
  /** `openapi` as the document states it. */
  openapi: string;
  bytes: number;
  sha256: string;
  features: Feature[];
  /** Over 1 MB: tested in real-documents-large.test.ts, apart from the quick ones. */
  large?: boolean;
  /** Not a valid OpenAPI document: the sentence of the specification it breaks, quoted, with its section. */
  invalid?: string;
  /**
   * The same document in an npm package this project installs (a pinned devDependency), so that it is read in a
   * clean clone where only the npm registry is reachable: byte for byte the origin's file when `sha256` is the
   * entry's, else the origin's document as the package reformats it (same `openapi` and features, checked).
   */
  package?: PackageCopy;
}

/** A document's copy in an installed npm package: `node_modules/<name>/<path>`. */
export interface PackageCopy {
  name: string;
  /** The exact version package.json pins. */
  version: string;
  path: string;
  bytes: number;
  sha256: string;
  /** SPDX identifier: the package's own, or the licence the package ships for the files it took from others. */
  licence: string;
}

export const MANIFEST = fileURLToPath(new URL('../../fixtures/real-documents/corpus.json', import.meta.url));
const FOLDER = fileURLToPath(new URL('../../fixtures/real-documents/', import.meta.url));
const PROJECT = fileURLToPath(new URL('../../../', import.meta.url));

export function readManifest(): CorpusEntry[] {
  return (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { documents: CorpusEntry[] }).documents;
}

/**
 * The folder the documents are in, or undefined when none holds them: `PETSTORE_REAL_DOCUMENTS`, else the manifest's
 * own folder (when the documents are kept beside it), else `shared/real-documents` beside the project (where the
 * workplace keeps data files taken from public repositories). The manifest's first document tells which holds them.
 */
export function corpusFolder(entries: readonly CorpusEntry[] = readManifest()): string | undefined {
  const first = entries[0];
  if (!first) return undefined;
  const candidates = [process.env.PETSTORE_REAL_DOCUMENTS, FOLDER, join(PROJECT, '..', 'shared', 'real-documents')];
  return candidates.find((folder) => folder !== undefined && existsSync(join(folder, first.file)));
}

/** Where `entry`'s package copy is installed, whether or not it is there. */
export function packagePath(copy: PackageCopy): string {
  return join(PROJECT, 'node_modules', copy.name, copy.path);
}

/** A corpus document found on this machine: the fetched file in the corpus folder, else its package copy. */
export interface Located {
  entry: CorpusEntry;
  path: string;
  /** The copy read: the origin's bytes, or a package's (whose SHA-256 and size are `entry.package`'s). */
  from: 'folder' | 'package';
}

/**
 * Each entry where it is on this machine: the fetched copy when the corpus folder holds the documents (the origin's
 * bytes), else its copy in an installed package; `absent` names the entries found in neither (fetched-only
 * documents in a clean clone), for the tests to skip with NO_CORPUS.
 */
export function locateAll(entries: readonly CorpusEntry[]): { present: Located[]; absent: CorpusEntry[] } {
  const folder = corpusFolder();
  const present: Located[] = [];
  const absent: CorpusEntry[] = [];
  for (const entry of entries) {
    if (folder && existsSync(join(folder, entry.file)))
      present.push({ entry, path: join(folder, entry.file), from: 'folder' });
    else if (entry.package && existsSync(packagePath(entry.package)))
      present.push({ entry, path: packagePath(entry.package), from: 'package' });
    else absent.push(entry);
  }
  return { present, absent };
}

/** The line a test prints when it cannot run for want of the documents, saying how to get them. */
export const NO_CORPUS =
  'the real documents are not on this machine: set PETSTORE_REAL_DOCUMENTS to a folder written by ' +
  'scripts/gather-real-documents.mjs (test/fixtures/real-documents/README.md)';
