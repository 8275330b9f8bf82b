import { randomBytes } from 'node:crypto';
import { loadSpec, type Spec } from '../openapi/load-spec.js';
import type { NewPet, Pet } from '../types.js';
import type { Exchange } from './send-request.js';
import { createRedactor } from './redact.js';

/** What a contract run needs to know; the CLI fills it from flags and environment. */
export interface ContractConfig {
  /** The target's base URL, version segment included: `https://staging.example.com/v1`. */
  baseUrl: string;
  /** A key the target accepts; sent as `Authorization: Bearer <key>` and redacted everywhere. */
  apiKey: string;
  /** Send no writes (no POST): for production. Checks that need one are skipped and listed. Default false. */
  readOnly?: boolean;
  /** Per-request timeout in milliseconds. Default 10000. */
  timeout?: number;
  /** Fail the run when a documented operation × status pair was not exercised. Default false. */
  requireCoverage?: boolean;
  /** Tags the names of pets this run creates (`contract-<runId>-…`). Default: made up from the clock. */
  runId?: string;
  /** A ceiling on the requests one run sends. Default 300 (a full run sends about 80). */
  maxRequests?: number;
  /** The OpenAPI document (file or object). Default: the bundled openapi.yaml. */
  spec?: string | Spec;
}

export const DEFAULT_TIMEOUT = 10_000;
export const DEFAULT_MAX_REQUESTS = 300;

export interface CreatedPet {
  label: string;
  sent: NewPet;
  pet: Pet;
}

/** The state one run shares between its cases: the document, what was sent, and what the target showed. */
export interface Session {
  config: Required<Omit<ContractConfig, 'spec'>>;
  spec: Spec;
  redact: (text: string) => string;
  /** Every exchange of the run, in order: the source of the coverage table. */
  exchanges: Exchange[];
  /** The first page of the list (limit 100) as the run found it, before it wrote anything. */
  sample: Pet[] | undefined;
  /** A lower bound on how many pets the target holds (unfiltered), from lists seen and pets created since. */
  storeFloor: number;
  created: CreatedPet[];
  /** Names sent in bodies that had to be rejected; none of them may be stored. */
  rejectedNames: string[];
}

/** Loads the document once and starts an empty session. */
export async function createSession(config: ContractConfig): Promise<Session> {
  const spec = typeof config.spec === 'object' && 'operationById' in config.spec ? config.spec : await loadSpec(config.spec);
  return {
    config: {
      baseUrl: config.baseUrl.replace(/\/+$/, ''),
      apiKey: config.apiKey,
      readOnly: config.readOnly ?? false,
      timeout: config.timeout ?? DEFAULT_TIMEOUT,
      requireCoverage: config.requireCoverage ?? false,
      runId: config.runId ?? newRunId(),
      maxRequests: config.maxRequests ?? DEFAULT_MAX_REQUESTS,
    },
    spec,
    redact: createRedactor(config.apiKey),
    exchanges: [],
    sample: undefined,
    storeFloor: 0,
    created: [],
    rejectedNames: [],
  };
}

/** Short, sortable and unique enough to find this run's pets: `m3k9x2-a7f3`. */
export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(2).toString('hex')}`;
}

/** The name a pet created by this run carries, so that people can find and clean up test data. */
export function taggedName(session: Session, label: string): string {
  return `contract-${session.config.runId}-${label}`;
}
