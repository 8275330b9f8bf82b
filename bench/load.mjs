// One bounded burst of load with autocannon on loopback: requests per second, and every answer counted.
import autocannon from 'autocannon';

/**
 * @param {{ url: string, method?: string, headers?: Record<string, string>, body?: string,
 *   seconds: number, connections: number }} options
 * @returns {Promise<{ rps: number, requests: number, non2xx: number, errors: number, p99: number }>}
 */
export function load({ url, method = 'GET', headers = {}, body, seconds, connections }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, method, headers, body, duration: seconds, connections, pipelining: 1 }, (error, result) => {
      if (error) return reject(error);
      resolve({
        rps: result.requests.average,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        p99: result.latency.p99,
      });
    });
  });
}
