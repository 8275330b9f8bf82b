// Baseline (b): the least an Express 5 app can do for the same answers: one app.use handler, ETag off.
import { createServer } from 'node:http';
import express from 'express';
import { createBaselineHandler } from './baseline-handler.mjs';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(createBaselineHandler(process.env.BENCH_KEY ?? 'bench-key'));
const server = createServer(app);
server.listen(0, '127.0.0.1', () =>
  console.log(`minimal Express listening on http://127.0.0.1:${server.address().port}/v1`),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
