import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { createOutgoingDispatcher } from '../../net/outgoing-agent.js';
import { loadSpec, type Spec } from '../../openapi/load-spec.js';
import type { StoredNewPet as NewPet, StoredPet as Pet } from '../../types.js';
import type { Exchange } from './exchange.js';
import { createSecretRedactor } from '../../redact/redact-secrets.js';

/** What a contract run needs to know; the CLI fills it from flags and environment. */
export interface ContractConfig {
  /** The target's base URL, version segment included: `https://staging.example.com/v1`. */
  baseUrl: string;
  /**
   * A key the target accepts; sent as each operation's security scheme says (v1: `Authorization: Bearer <key>`;
   * transport/credentials.ts) and redacted everywhere.
   */
  apiKey: string;
  /** Send no writes (no POST, PUT, PATCH or DELETE): for production. Checks that need one are skipped and listed. Default false. */
  readOnly?: boolean;
  /** Per-request timeout in milliseconds. Default 10000. */
  timeout?: number;
  /** Fail the run when a documented operation × status pair was not exercised. Default false. */
  requireCoverage?: boolean;
  /** Tags the names of pets this run creates (`contract-<runId>-…`). Default: made up from the clock. */
  runId?: string;
  /** A ceiling on the requests one run sends. Default `DEFAULT_MAX_REQUESTS` (the fixed cases send about 56). */
  maxRequests?: number;
  /** The OpenAPI document (file or object). Default: the bundled openapi.yaml. */
  spec?: string | Spec;
  /** Extra request headers (`-H`), e.g. a gateway's or an access proxy's credentials; values are never printed. */
  headers?: Record<string, string>;
  /** A PEM file of certificate authorities to trust instead of the bundled roots (as `curl --cacert`). */
  ca?: string;
  /** Accept any certificate of the target. Default false. */
  insecure?: boolean;
  /** The largest response body read, in bytes after decompression; longer ones fail `response.bounded`. Default 2 MiB. */
  maxBody?: number;
  /** The whole run's time limit in milliseconds: past it the run stops (exit 2). Default 15 minutes. */
  deadline?: number;
  /** When the run must end (epoch ms): set once by whoever starts the run, so that every worker agrees. */
  deadlineAt?: number;
  /** The generated phase's seed (0 to 2^31−1): the same seed against the same target sends the same requests. Default: random, and printed. */
  seed?: number;
  /**
   * An optional cap on the generated phase's time in milliseconds, shared fairly between its cases; 0 turns the
   * phase off. Default none: every case sends its examples (`runs`), bounded by `deadline` and `maxRequests` only.
   */
  timeBudget?: number;
  /** At most this many requests per second (0: no limit). Default 0. */
  rate?: number;
  /** Examples each generated property tries (fast-check's numRuns); the stateful check tries a quarter as many sequences. Default 250. */
  runs?: number;
  /**
   * Generated examples (and stateful sequences) in flight at once, each one's requests in order; `--rate`, 429 and
   * Retry-After pacing are shared. Default 8 (DEFAULT_CONCURRENCY); 1 sends the same requests in the same order as
   * every earlier run of a seed.
   */
  concurrency?: number;
}

export const DEFAULT_TIMEOUT = 10_000;
/** A safety bound, well above a default run (about 1,900): shared fairly, so it never starves a case. */
export const DEFAULT_MAX_REQUESTS = 10_000;
/** No time cap by default: the phase is bounded by examples, and by the deadline and the request cap. */
export const DEFAULT_TIME_BUDGET = Infinity;
/**
 * Examples in flight at once by default: enough that a target 40 ms away gets every example a local one gets in
 * well under 30 s (about 1,900 requests: 76 s one at a time), and a light load for a staging server.
 */
export const DEFAULT_CONCURRENCY = 8;
/** The most examples in flight `--concurrency` allows. */
export const MAX_CONCURRENCY = 64;
/** `--seed` runs from 0 to this (fast-check's seeds are 32-bit). */
export const MAX_SEED = 2 ** 31 - 1;
export const DEFAULT_RUNS = 250;
export const DEFAULT_MAX_BODY = 2 * 1024 * 1024;
export const DEFAULT_DEADLINE = 15 * 60_000;
/** Node's default limit on a response head, stated so that the message for a larger one is true. */
export const MAX_HEADER_SIZE = 16 * 1024;

export interface CreatedPet {
  label: string;
  sent: NewPet;
  pet: Pet;
}

/** What a run's options come to once defaults are applied: fixed when the run starts. */
export type RunConfig = Required<Omit<ContractConfig, 'spec' | 'ca'>> & { ca?: string };

/**
 * What one run shares between its cases, in three parts by who writes them: what is fixed for the run (read by
 * all, written by none), what paces and stops it (transport and the generated phase's budget), and what it found
 * about the target (the cases, building on each other's findings).
 */
export interface Session {
  readonly config: Readonly<RunConfig>;
  readonly spec: Spec;
  /**
   * Masks the key (and the -H values) where a target echoed them, in what is printed; never applied before judging.
   * The runner's own text shows the key by structure instead (shown-credentials.ts).
   */
  readonly redact: (text: string) => string;
  /** Where requests go out: proxy settings, CA, limits. */
  readonly dispatcher: Dispatcher;
  readonly pacing: RunPacing;
  readonly findings: RunFindings;
}

/**
 * What paces and stops a run: written by the sender after each answer and by the generated phase's budget, each
 * read and written in one synchronous step, never across an `await`.
 */
export interface RunPacing {
  /** When the next request may start under --rate (epoch ms). */
  nextSlotAt: number;
  consecutiveNoAnswers: number;
  /** Why the run stopped early (deadline, target gone): set once, every later request and case is skipped. */
  stopped?: string;
  /** When the generated phase's time budget ends (epoch ms), set by its first case. */
  generatedUntil?: number;
  /** When the running generated case's share of that budget ends (epoch ms): see startCaseShare. */
  caseUntil?: number;
  /** How many requests the run may have sent when the running generated case's share of the cap is spent. */
  caseRequestsUntil?: number;
}

/** What a run found about the target: records that only grow, and bounds that only rise. */
export interface RunFindings {
  /** Every exchange of the run, in order: the source of the coverage table and the request count. */
  exchanges: Exchange[];
  /** The first page of the list (limit 100) as the run found it, before it wrote anything. */
  sample: Pet[] | undefined;
  /** A lower bound on how many pets the target holds (unfiltered), from lists seen and pets created since. */
  storeFloor: number;
  created: CreatedPet[];
  /** Names sent in bodies that had to be rejected; none of them may be stored. */
  rejectedNames: string[];
  /** True once a pet the run created was seen again (getPet or the list): the target is shown to store pets. */
  storesPets: boolean;
  /** Premises later cases would build on that turned out wrong, by label: those cases are skipped with the reason. */
  brokenPremises: Map<string, string>;
  /** The media type labels (or "no Content-Type") under which the target read a JSON body anyway (allowed; noted once each). */
  readAsJson?: Set<string>;
}

/** Loads the document once and starts an empty session. */
export async function createSession(config: ContractConfig): Promise<Session> {
  const spec =
    typeof config.spec === 'object' && 'operationById' in config.spec ? config.spec : await loadSpec(config.spec);
  const timeout = config.timeout ?? DEFAULT_TIMEOUT;
  const deadline = config.deadline ?? DEFAULT_DEADLINE;
  const headers = Object.fromEntries(
    Object.entries(config.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return {
    config: {
      baseUrl: config.baseUrl.replace(/\/+$/, ''),
      apiKey: config.apiKey,
      readOnly: config.readOnly ?? false,
      timeout,
      requireCoverage: config.requireCoverage ?? false,
      runId: config.runId ?? newRunId(),
      maxRequests: config.maxRequests ?? DEFAULT_MAX_REQUESTS,
      headers,
      ...(config.ca !== undefined ? { ca: config.ca } : {}),
      insecure: config.insecure ?? false,
      maxBody: config.maxBody ?? DEFAULT_MAX_BODY,
      deadline,
      deadlineAt: config.deadlineAt ?? Date.now() + deadline,
      seed: config.seed ?? randomBytes(4).readUInt32BE() >>> 1,
      timeBudget: config.timeBudget ?? DEFAULT_TIME_BUDGET,
      rate: config.rate ?? 0,
      runs: config.runs ?? DEFAULT_RUNS,
      concurrency: config.concurrency ?? DEFAULT_CONCURRENCY,
    },
    spec,
    redact: createSecretRedactor([...secretsOf(config), ...derivedSecrets(config.apiKey)]),
    dispatcher: createOutgoingDispatcher({
      ...(config.ca !== undefined ? { ca: readFileSync(config.ca) } : {}),
      insecure: config.insecure ?? false,
      timeout,
      maxHeaderSize: MAX_HEADER_SIZE,
    }),
    pacing: { nextSlotAt: 0, consecutiveNoAnswers: 0 },
    findings: {
      exchanges: [],
      sample: undefined,
      storeFloor: 0,
      created: [],
      rejectedNames: [],
      storesPets: false,
      brokenPremises: new Map(),
    },
  };
}

/**
 * Values a target may echo that must never be printed: the key and the values of extra headers. The redactor
 * searches text for those long enough to tell from ordinary text (MIN_MASKED_SECRET_LENGTH); shorter ones are
 * masked where the runner put them only.
 */
export function secretsOf(config: Pick<ContractConfig, 'apiKey' | 'headers'>): string[] {
  return [config.apiKey, ...Object.values(config.headers ?? {})];
}

/**
 * Near-copies of the key the generated phase sends as wrong credentials (the key less its last character): as
 * secret as the key itself, since a target echoing one would print all but a character of it. (Another letter
 * case is found by the redactor anyway: it matches in any case.)
 */
export function derivedSecrets(apiKey: string): string[] {
  return apiKey.length >= 2 ? [apiKey.slice(0, -1)] : [];
}

/** Short, sortable and unique enough to find this run's pets: `m3k9x2-a7f3`. */
export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(2).toString('hex')}`;
}

/** The name a pet created by this run carries, so that people can find and clean up test data. */
export function taggedName(session: Session, label: string): string {
  return `contract-${session.config.runId}-${label}`;
}
