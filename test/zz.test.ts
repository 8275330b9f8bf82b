import { test } from 'vitest';
import { runContract } from '../src/contract/run-contract.js';
import { startIndependentPetstore } from './targets/independent-petstore.js';
test('x', async () => {
  for (const fault of ['write-not-persisted', 'limit-ignored', 'getPet-id-as-string', 'list-as-text-plain'] as const) {
    const t = await startIndependentPetstore({ key: 'kkkkkk', fault });
    const r = await runContract({ baseUrl: t.url, apiKey: 'kkkkkk' });
    console.log(fault, r.requests, JSON.stringify(r.summary));
    for (const c of r.cases) for (const f of c.failures) console.log('  ', c.id, JSON.stringify(f));
    for (const c of r.cases) if (c.status === 'skipped') console.log('  skipped', c.id, c.reason);
    await t.close();
  }
});
