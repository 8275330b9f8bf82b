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

/** The line a test prints when it cannot run for want of the documents, saying how to get them. */
export const NO_CORPUS =
  'the real documents are not on this machine: set PETSTORE_REAL_DOCUMENTS to a folder written by ' +
  'scripts/gather-real-documents.mjs (test/fixtures/real-documents/README.md)';
