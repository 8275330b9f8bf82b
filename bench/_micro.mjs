import { createMock } from '../dist/mock/create-mock.js';
import { Readable } from 'node:stream';
const mock = await createMock({ apiKeys: ['bench-key'] });
const headers = { host: 'x', authorization: 'Bearer bench-key', 'user-agent': 'wrk' };
const body = Readable.from([]);
async function run(url, n) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await mock.handle({ method: 'GET', url, headers, body, mountPath: '' });
  return ((performance.now() - t) * 1000) / n;
}
for (const url of ['/v1/pets?limit=20', '/v1/pets/7', '/v1/pets']) {
  await run(url, 20000);
  console.log(url, (await run(url, 100000)).toFixed(2), 'µs/req');
}
