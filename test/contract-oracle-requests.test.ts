import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ContractCase } from '../src/contract/engine/run-case.js';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { collectionOracleCases } from '../src/contract/stateful/collection-oracles.js';
import { resourceOracleCases, type JudgedElsewhere } from '../src/contract/stateful/resource-oracles.js';
import { loadSpec, type Spec } from '../src/openapi/load-spec.js';
import { createMockServer } from '../src/mock/http/server.js';
import { specAt, wordsOn } from './support/oracle-words.js';
import { startResourcePetstore } from './targets/resource-petstore.js';
import { startVariantPetstore, variantDocument, type Variant } from './targets/variant-petstore.js';
import { COLLECTION_ORACLE_CHECKS, ITEM_ORACLE_CHECKS } from './support/oracle-checks.js';

/**
 * Every request each resource and collection oracle sends, path, query and body, on the documents of the other
 * oracle tests, each case alone against a correct target of that document (which passes it):
 * test/fixtures/oracle-requests.txt holds them, read and checked by hand when written. The words tests hold the
 * statuses and the failures' words; this file holds what was asked: the item a create sends and the labels it
 * carries, the broken field, the patch, the filter and limit of each list, the unknown id, the other parent. A
 * mutation run (`npm run mutation`) kills on it what changes a request without changing a verdict on a correct
 * target. PETSTORE_WRITE_ORACLE_REQUESTS=1 rewrites the file from this build: read its diff before committing it.
 */
const KEY = 'oracle-requests-key-81c4';
const FILE = fileURLToPath(new URL('./fixtures/oracle-requests.txt', import.meta.url));
const document = (name: string) => fileURLToPath(new URL(`./fixtures/documents/${name}`, import.meta.url));

const ORACLE_CHECKS = new Set([...ITEM_ORACLE_CHECKS, ...COLLECTION_ORACLE_CHECKS]);

const NOTHING_ELSE: JudgedElsewhere = { fields: new Map(), filters: new Map() };

interface Target {
  url: string;
  close(): Promise<void>;
}

interface Subject {
  spec: () => Promise<Spec>;
  start: () => Promise<Target>;
  /** The suite's cases (v1's fixed cases judging some fields), else the oracles with nothing judged elsewhere. */
  cases: (spec: Spec) => ContractCase[];
}

function oraclesOf(cases: ContractCase[]): ContractCase[] {
  return cases.filter((c) => ORACLE_CHECKS.has(c.check));
}

const suiteCases = (spec: Spec) => oraclesOf(contractCases(spec));
const allOracles = (spec: Spec) => [...resourceOracleCases(spec), ...collectionOracleCases(spec, NOTHING_ELSE)];

const variantSpecs = new Map<string, Promise<Spec>>();
function variant(shape: Variant): Subject {
  const key = JSON.stringify(shape);
  return {
    spec: () => {
      if (!variantSpecs.has(key)) variantSpecs.set(key, loadSpec(variantDocument(shape)));
      return variantSpecs.get(key)!;
    },
    start: () => startVariantPetstore(KEY, shape),
    cases: allOracles,
  };
}

const SUBJECTS: Record<string, Subject> = {
  'v1.1': {
    spec: () => specAt(document('petstore-v1.1.yaml')),
    start: () => startResourcePetstore(KEY),
    cases: suiteCases,
  },
  'v1.2': {
    spec: () => specAt(document('petstore-v1.2.yaml')),
    start: () => startResourcePetstore(KEY),
    cases: suiteCases,
  },
  shapes: {
    spec: () => specAt(document('oracle-shapes.yaml')),
    start: () => createMockServer({ apiKeys: [KEY], spec: document('oracle-shapes.yaml') }),
    cases: suiteCases,
  },
  'uuid ids': variant({ ids: 'uuid' }),
  'string ids': variant({ ids: 'string' }),
  'no 404 declared': variant({ notFound: false }),
  'a PUT that may create': variant({ ids: 'uuid', putCreates: true }),
  'a delete answering the pet, no Location': variant({ deleteAnswersPet: true, location: false }),
  'no PUT': variant({ without: ['replace'] }),
  'no PATCH': variant({ without: ['merge'] }),
  'JSON Patch only': variant({ patchMediaType: 'application/json-patch+json' }),
  'nothing nullable in the patch': variant({ patchNullable: [] }),
  'a create refused with 422': variant({ createRefusals: ['422'] }),
};

/** What one case sent, one request a line (and why, if it was skipped). */
async function requestsOf(subject: string, id: string): Promise<string[]> {
  const { spec, start, cases } = SUBJECTS[subject]!;
  const words = await wordsOn(await start(), KEY, await spec(), cases, id, true);
  expect(words.failures, `${subject} ${id} fails a correct target`).toEqual([]);
  // A case skipped sends nothing and says why: the reason is its one line.
  return [...(words.requests === '' ? [] : words.requests.split('\n')), ...(words.skipped ? [words.skipped] : [])];
}

/** The file's sections: `### subject case-id`, then one request a line. */
function readRecorded(): Map<string, string[]> {
  const recorded = new Map<string, string[]>();
  let lines: string[] = [];
  for (const line of readFileSync(FILE, 'utf8').split('\n')) {
    if (line.startsWith('### ')) recorded.set(line.slice(4), (lines = []));
    else if (line !== '') lines.push(line);
  }
  return recorded;
}

async function every(): Promise<[string, string][]> {
  const all: [string, string][] = [];
  for (const [name, subject] of Object.entries(SUBJECTS))
    for (const c of subject.cases(await subject.spec())) all.push([name, c.id]);
  return all;
}

const cases = await every();

if (process.env.PETSTORE_WRITE_ORACLE_REQUESTS === '1') {
  const sections: string[] = [];
  for (const [subject, id] of cases)
    sections.push(`### ${subject} ${id}\n${(await requestsOf(subject, id)).join('\n')}\n`);
  writeFileSync(FILE, sections.join('\n'));
}

const recorded = readRecorded();

describe('the requests of each resource and collection oracle', () => {
  it('are recorded for every case of every document, and no other', () => {
    expect(cases.map(([subject, id]) => `${subject} ${id}`)).toEqual([...recorded.keys()]);
  });

  it.each(cases)('%s: %s', async (subject, id) => {
    expect(await requestsOf(subject, id)).toEqual(recorded.get(`${subject} ${id}`));
  });
});
