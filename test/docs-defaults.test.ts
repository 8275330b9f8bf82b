import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { maxHeaderSize } from 'node:http';
import { fileURLToPath } from 'node:url';
import { docs, optionsTable as defaults, section } from './support/docs.js';
import { DEFAULT_BODY_LIMIT, DEV_API_KEY } from '../src/mock/runtime.js';
import { DEFAULT_MAX_ITEMS } from '../src/mock/store/collection-store.js';
import { MAX_DEFAULT_STORE_BYTES } from '../src/mock/store/heap-budget.js';
import { MAX_ATTACHED_TEXT, MAX_STORE_BYTES } from '../src/mock/base/store-bytes.js';
import { MAX_CACHED_PAGE_BYTES } from '../src/mock/store/memory.js';
import {
  DEFAULT_REDIS_MAX_BYTES,
  DEFAULT_STORE_PREFIX,
  RECONNECT_MAX_MS,
  RECONNECT_MIN_MS,
  REDIS_TIMEOUT_MS,
} from '../src/mock/store/redis.js';
import { FD_RESERVE } from '../src/mock/http/connection-cap.js';
import { DEFAULT_TIMEOUTS } from '../src/mock/http/server.js';
import {
  MAX_REQUEST_JSON_DEPTH as MAX_JSON_DEPTH,
  MAX_RESPONSE_JSON_DEPTH as MAX_RESPONSE_DEPTH,
} from '../src/json/json-depth.js';
import { DEFAULT_JOURNAL_SIZE, MAX_KEPT_BODY } from '../src/mock/state/journal.js';
import { MAX_DELAY_MS } from '../src/mock/base/faults.js';
import { DEFAULT_BASE_URL } from '../src/fetch/in-process-mock.js';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT,
  HELD_ANSWERS,
  MIN_HELD_BYTES,
} from '../src/proxy/create-proxy-server.js';
import {
  MAX_CONCURRENCY,
  MAX_SEED,
  DEFAULT_CONCURRENCY,
  DEFAULT_DEADLINE,
  DEFAULT_MAX_BODY,
  DEFAULT_MAX_REQUESTS,
  DEFAULT_RUNS,
  DEFAULT_TIME_BUDGET,
  DEFAULT_TIMEOUT,
} from '../src/contract/base/session.js';
import { MAX_RETRIES, MAX_RETRY_WAIT_MS } from '../src/contract/transport/pacing.js';
import { errorKinds } from '../src/errors.js';
import { MAX_BODY_RANGE } from '../src/commands/contract-options.js';
import { listBounds } from '../src/contract/engine/pets.js';
import { MAX_CONSECUTIVE_NO_ANSWERS } from '../src/contract/transport/send-request.js';
import { MAX_HOSTS } from '../src/mock/docs/docs-document.js';
import { loadSpec } from '../src/openapi/load-spec.js';

// A number in the docs is generated or checked by a test. The defaults in the three options tables and
// the bounds on the Limits page are the code's constants, read here from the code, so changing one without the
// other fails.
const MiB = 1024 * 1024;

/** A page's text with its line breaks as spaces, so a figure may wrap. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe("the defaults in the options tables are the code's", () => {
  it('petstore-kit mock', () => {
    const table = defaults(section('`npx petstore-kit mock [options]', '##'));
    expect(table.get('--port')).toBe(`\`${new URL(DEFAULT_BASE_URL).port}\``);
    expect(table.get('--api-key')).toBe(`\`PETSTORE_API_KEYS\`, else \`${DEV_API_KEY}\``);
    expect(table.get('--body-limit')).toBe(`\`${DEFAULT_BODY_LIMIT}\` (${DEFAULT_BODY_LIMIT / MiB} MiB)`);
    expect(table.get('--max-pets')).toBe(`\`${DEFAULT_MAX_ITEMS}\``);
    expect(table.get('--max-store-bytes')).toBe(
      `a quarter of the heap limit, at most ${MAX_DEFAULT_STORE_BYTES / MiB} MiB`,
    );
    expect(table.get('--max-connections')).toBe(`the open-file limit less ${FD_RESERVE}`);
    expect(table.get('--journal-size')).toBe(`\`${DEFAULT_JOURNAL_SIZE}\``);
    expect(table.get('--store-prefix')).toBe(`\`${DEFAULT_STORE_PREFIX}\``);
    expect(flat(section('`npx petstore-kit mock [options]', '##'))).toContain(`(at most ${MAX_DELAY_MS})`);
  });

  it('petstore-kit proxy', () => {
    const table = defaults(section('`npx petstore-kit proxy --upstream URL [options]', '##'));
    expect(table.get('--port')).toBe(new URL(DEFAULT_BASE_URL).port);
    expect(table.get('--timeout')).toBe(String(DEFAULT_UPSTREAM_TIMEOUT));
    expect(table.get('--max-response-bytes')).toBe(String(DEFAULT_MAX_RESPONSE_BYTES));
    expect(table.get('--body-limit')).toBe(String(DEFAULT_BODY_LIMIT));
    expect(table.get('--max-pets')).toBe(String(DEFAULT_MAX_ITEMS));
  });

  it('petstore-kit contract', () => {
    const table = defaults(section('`npx petstore-kit contract --base-url URL [options]`', '##'));
    expect(table.get('--deadline')).toBe(`\`${DEFAULT_DEADLINE / 1000}\``);
    expect(table.get('--max-body')).toBe(`\`${DEFAULT_MAX_BODY / MiB}MiB\``);
    expect(table.get('--timeout')).toBe(`\`${DEFAULT_TIMEOUT}\``);
    expect(table.get('--max-requests')).toBe(`\`${DEFAULT_MAX_REQUESTS}\``);
    expect(table.get('--runs')).toBe(`\`${DEFAULT_RUNS}\``);
    expect(table.get('--concurrency')).toBe(`\`${DEFAULT_CONCURRENCY}\``);
    expect(DEFAULT_TIME_BUDGET).toBe(Infinity);
    expect(table.get('--time-budget')).toBe('none');
    const text = flat(section('`npx petstore-kit contract --base-url URL [options]`', '#'));
    expect(text).toContain(`at most ${MAX_RETRY_WAIT_MS / 1000} s a wait, ${MAX_RETRIES} waits per request`);
    expect(text).toContain(
      `(bytes, or \`512KiB\`, \`8MiB\`; ${MAX_BODY_RANGE.min / 1024} KiB to ${MAX_BODY_RANGE.max / MiB} MiB)`,
    );
    expect(text).toContain(`in flight at once (1 to ${MAX_CONCURRENCY})`);
    expect(MAX_SEED).toBe(2 ** 31 - 1);
    expect(text).toContain("the generated phase's seed (0 to 2^31−1)");
    expect(text).toContain(`nests at most ${MAX_RESPONSE_DEPTH} levels deep`);
    expect(text).toContain(
      `\`--timeout\` per request (${DEFAULT_TIMEOUT / 1000} s), \`--deadline\` for the whole run (${DEFAULT_DEADLINE / 60_000} min), \`--max-body\` per answer (${DEFAULT_MAX_BODY / MiB} MiB`,
    );
  });
});

describe('the Limits page states the bounds the code sets', () => {
  const text = flat(section('# Limits', '#'));
  it.each([
    ['stored pets', `at most \`--max-pets\` (default ${DEFAULT_MAX_ITEMS.toLocaleString('en-US')}, fixtures included`],
    ['body size', `\`--body-limit\`, ${DEFAULT_BODY_LIMIT / MiB} MiB by default (413)`],
    ['JSON depth', `at most ${MAX_JSON_DEPTH} nested arrays/objects`],
    [
      'slow clients',
      `the headers must arrive within ${DEFAULT_TIMEOUTS.headersTimeout / 1000} s and the whole request within ${DEFAULT_TIMEOUTS.requestTimeout / 1000} s`,
    ],
    ['idle connections', `idle keep-alive connections close after ${DEFAULT_TIMEOUTS.keepAliveTimeout / 1000} s`],
    ['slow readers', `An answer must be taken within ${DEFAULT_TIMEOUTS.writeTimeout / 1000} s once it is ready`],
    [
      'stored bytes',
      `default a quarter of V8's heap limit, at most ${MAX_DEFAULT_STORE_BYTES / MiB} MiB; at most ${MAX_STORE_BYTES / MiB} MiB`,
    ],
    ['attached text', `only when small (≤ ${MAX_ATTACHED_TEXT / 1024} KiB)`],
    ['cached pages', `cached list pages hold at most ${MAX_CACHED_PAGE_BYTES / MiB} MiB`],
    ['connections', `the process's open-file limit less ${FD_RESERVE}`],
    ['journal bodies', `only when at most ${MAX_KEPT_BODY / 1024} KiB were actually read`],
  ])('%s', (_, claim) => {
    expect(text).toContain(claim);
  });

  it("the team mock's byte budget and timings", () => {
    const team = flat(section('# Team mock on Redis', '#'));
    expect(team).toContain(`${DEFAULT_REDIS_MAX_BYTES / MiB} MiB of JSON by default, each per collection`);
    expect(team).toContain(`within ${REDIS_TIMEOUT_MS / 1000} s when Redis hangs`);
    expect(team).toContain(`(retrying every ${RECONNECT_MIN_MS} ms to ${RECONNECT_MAX_MS / 1000} s)`);
  });
});

describe("the Error codes page is the code's table of errors", () => {
  const page = section('# Error codes', '#');
  const rows = [...page.matchAll(/^\| ([\d–]+) \| `([a-z_]+)` \| (.*) \|$/gm)].map((match) => ({
    status: match[1]!,
    code: match[2]!,
    when: match[3]!,
  }));

  it('lists every code once, with the status the mock answers it with', () => {
    expect(rows.map((row) => row.code).sort()).toEqual([...Object.keys(errorKinds), 'forced'].sort());
    for (const row of rows)
      if (row.code !== 'forced')
        expect(`${row.code} ${row.status}`).toBe(`${row.code} ${errorKinds[row.code as keyof typeof errorKinds]}`);
  });

  it('states the bounds behind them as the code sets them', () => {
    const when = (code: string) => rows.find((row) => row.code === code)!.when;
    expect(when('invalid_body')).toContain(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    expect(when('request_timeout')).toContain(
      `within ${DEFAULT_TIMEOUTS.headersTimeout / 1000} s, or the whole request within ${DEFAULT_TIMEOUTS.requestTimeout / 1000} s`,
    );
    expect(when('upstream_unavailable')).toContain(`no answer within ${DEFAULT_UPSTREAM_TIMEOUT} ms`);
    expect(when('proxy_overloaded')).toContain(
      `(${HELD_ANSWERS} × \`--max-response-bytes\`, at least ${MIN_HELD_BYTES / MiB} MiB)`,
    );
    expect(when('store_unavailable')).toContain(`did not answer within ${REDIS_TIMEOUT_MS / 1000} s`);
    expect(when('headers_too_large')).toContain(`over Node's limit (${maxHeaderSize / 1024} KiB)`);
  });
});

describe('the files docs name', () => {
  it('exist: every `src/…`, `test/…`, `scripts/…` and `bench/…` path quoted in README and docs/', () => {
    const root = fileURLToPath(new URL('../', import.meta.url));
    const named = new Set(
      [
        ...docs.matchAll(/`((?:src|test|scripts|bench|contract-tests|fixtures)\/[\w./-]+\.(?:ts|mjs|js|json|lua))`/g),
      ].map((match) => match[1]!),
    );
    expect(named.size).toBeGreaterThan(20);
    expect([...named].filter((path) => !existsSync(`${root}${path}`))).toEqual([]);
  });

  it("hold the figures docs give for them: the reliability table's", () => {
    const text = flat(section('# Reliability promises', '#'));
    const redisTeam = readFileSync(fileURLToPath(new URL('./redis-team.test.ts', import.meta.url)), 'utf8');
    expect(text).toContain('1,000 parallel creates over the replicas');
    expect(redisTeam).toContain('pooled(1000,');
    const persist = readFileSync(fileURLToPath(new URL('./persist.test.ts', import.meta.url)), 'utf8');
    expect(text).toContain('SIGKILL under 8 concurrent creators');
    expect(persist).toContain('Array.from({ length: 8 }, (_, n) => client(n))');
  });
});

describe('the Decisions page states what the code and the document decide', () => {
  const text = flat(section('# Decisions', '#'));
  it('the bounds and defaults it names', async () => {
    const LIST_DEFAULT = listBounds(await loadSpec()).default;
    expect(text).toContain(`is at most ${MAX_DELAY_MS / 1000} s`);
    expect(text).toContain(`keeps ${DEFAULT_JOURNAL_SIZE} entries by default`);
    expect(text).toContain(`(and ${LIST_DEFAULT} by default)`);
    expect(text).toContain(`cached (at most ${MAX_HOSTS} hosts)`);
    expect(flat(section('`npx petstore-kit contract --base-url URL [options]`', '#'))).toContain(
      `a stop with exit 2 after ${MAX_CONSECUTIVE_NO_ANSWERS} requests in a row without an answer`,
    );
  });

  it("the deprecation dates, which are openapi.yaml's", async () => {
    const getPet = (await loadSpec()).operationById.get('getPet')!;
    expect(text).toContain(`x-deprecated-since: ${getPet.deprecatedSince!.toISOString().slice(0, 10)}`);
  });
});
