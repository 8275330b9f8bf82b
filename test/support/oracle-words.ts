import { createSession } from '../../src/contract/base/session.js';
import { runCase, type ContractCase } from '../../src/contract/engine/run-case.js';
import { loadSpec, type Spec } from '../../src/openapi/load-spec.js';
import { startResourcePetstore, type ResourceFault } from '../targets/resource-petstore.js';

/** What one oracle case sent and said, run alone against a fresh resource-petstore target (with `fault`, if any). */
export interface OracleWords {
  /** `METHOD status` of each request, in order. */
  requests: string;
  /** Each failure's check, expected and actual text. */
  failures: string[][];
  /** Why the case was skipped or not run; absent (undefined, which toEqual overlooks) when it ran. */
  skipped?: string;
}

const specs = new Map<string, Promise<Spec>>();

/**
 * The document at `document`, loaded once per test file run: loading compiles its validators (half a second on a
 * loaded machine), and a mutation run repeats every test that reaches a mutant, for each mutant.
 */
export function specAt(document: string): Promise<Spec> {
  let spec = specs.get(document);
  if (!spec) specs.set(document, (spec = loadSpec(document)));
  return spec;
}

/**
 * Runs the case `id` of `casesOf(spec)` (the document at `document`) alone on a fresh target: the words tests of the
 * item and collection oracles hold each case to exactly what it sends and says.
 */
export async function runOracleAlone(
  key: string,
  document: string,
  casesOf: (spec: Spec) => ContractCase[],
  fault: ResourceFault | undefined,
  id: string,
): Promise<OracleWords> {
  return wordsOn(await startResourcePetstore(key, fault), key, await specAt(document), casesOf, id);
}

/**
 * Runs the case `id` of `casesOf(spec)` alone against a target already started, and closes it. With `full`, each
 * request is written `METHOD status path?query body` (the target's origin left out, the body as sent), one a line:
 * what the oracle asked for, not only how often.
 */
export async function wordsOn(
  target: { url: string; close(): Promise<void> },
  key: string,
  spec: Spec,
  casesOf: (spec: Spec) => ContractCase[],
  id: string,
  full = false,
): Promise<OracleWords> {
  const session = await createSession({ baseUrl: target.url, apiKey: key, spec, runId: 'words' });
  try {
    const contractCase = casesOf(spec).find((c) => c.id === id);
    if (!contractCase) throw new Error(`no case ${id} for this document`);
    const result = await runCase(session, contractCase);
    return {
      requests: result.requests
        .map(
          (r) => `${/-X (\w+)/.exec(r.request)?.[1] ?? 'GET'} ${r.status}${full ? sentOf(r.request, target.url) : ''}`,
        )
        .join(full ? '\n' : ', '),
      failures: result.failures.map((f) => [f.check, f.expected, f.actual]),
      skipped:
        result.status === 'skipped' || result.status === 'notRun' ? `${result.status}: ${result.reason}` : undefined,
    };
  } finally {
    await session.dispatcher.close();
    await target.close();
  }
}

/** ` path?query body` of a request's curl line: the path and query after the target's origin, the body as sent. */
function sentOf(curl: string, base: string): string {
  const url = /'?(https?:\/\/[^\s']+)'?/.exec(curl)?.[1] ?? '';
  const body = /--data-raw '((?:[^']|'\\'')*)'/.exec(curl)?.[1]?.replace(/'\\''/g, "'");
  return ` ${url.slice(new URL(base).origin.length)}${body === undefined ? '' : ` ${body}`}`;
}
