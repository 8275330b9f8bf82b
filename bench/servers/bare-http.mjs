// Baseline (a): a bare node:http server. Prints its URL like the mock does, so the benchmark starts all alike.
import { createServer } from 'node:http';
import { createBaselineHandler } from './baseline-handler.mjs';

const server = createServer(createBaselineHandler(process.env.BENCH_KEY ?? 'bench-key'));
server.listen(0, '127.0.0.1', () =>
  console.log(`bare node:http listening on http://127.0.0.1:${server.address().port}/v1`),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
