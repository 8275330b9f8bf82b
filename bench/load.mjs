// One bounded burst of load on loopback: requests per second, and every answer counted. Uses wrk when it is on
// PATH (C, one thread: it leaves the most CPU to the server on a small machine), else autocannon (npm).
// BENCH_LOAD=autocannon or BENCH_LOAD=wrk forces one.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { installed } from './processes.mjs';

export const tool = process.env.BENCH_LOAD ?? (installed('wrk', ['-v']) ? 'wrk' : 'autocannon');

/**
 * `pathPrefix`: each request goes to `pathPrefix` and the next number from `first` (a DELETE per stored id) instead
 * of `url`'s path.
 * @param {{ url: string, method?: string, headers?: Record<string, string>, body?: string,
 *   seconds: number, connections: number, pathPrefix?: string, first?: number }} options
 * @returns {Promise<{ rps: number, requests: number, non2xx: number, errors: number, p99: number }>}
 */
export function load(options) {
  return tool === 'wrk' ? withWrk(options) : withAutocannon(options);
}

function withAutocannon({ url, method = 'GET', headers = {}, body, seconds, connections, pathPrefix, first = 1 }) {
  let next = first;
  const requests =
    pathPrefix === undefined
      ? undefined
      : [{ setupRequest: (request) => ({ ...request, path: `${pathPrefix}${next++}` }) }];
  return new Promise((resolve, reject) => {
    const options = { url, method, headers, body, duration: seconds, connections, pipelining: 1, requests };
    autocannon(options, (error, result) => {
      if (error) return reject(error);
      resolve({
        rps: result.requests.total / (result.duration || seconds),
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        p99: result.latency.p99,
      });
    });
  });
}

function withWrk({ url, method = 'GET', headers = {}, body, seconds, connections, pathPrefix, first = 1 }) {
  const script = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));
  const env = {
    ...process.env,
    WRK_METHOD: method,
    WRK_HEADERS: Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('|'),
    ...(body === undefined ? {} : { WRK_BODY: body }),
    ...(pathPrefix === undefined ? {} : { WRK_PATH_PREFIX: pathPrefix, WRK_FIRST: String(first) }),
  };
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', script, url];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { env, timeout: (seconds + 30) * 1000 }, (error, stdout) => {
      if (error) return reject(error);
      const line = /WRK_JSON (\{.*\})/.exec(stdout);
      if (!line) return reject(new Error(`wrk printed no summary:\n${stdout}`));
      const report = JSON.parse(line[1]);
      resolve({
        rps: report.requests / (report.duration_us / 1e6),
        requests: report.requests,
        non2xx: report.status,
        errors: report.errors,
        p99: Math.round(report.p99_us / 100) / 10,
      });
    });
  });
}
