// Baseline (b'): the minimal Express app behind the listener the mock's own server uses (shapeForExpress, which
// keeps V8's hidden classes of requests and responses shared across requests). The mock against this one shows the
// mock's own cost; against the plain minimal app, what a user of the mock gets compared with a plain Express app.
import { createServer } from 'node:http';
import express from 'express';
import { createBaselineHandler } from './baseline-handler.mjs';
import { shapeForExpress } from '../../dist/mock/http/express-adapter.js';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(createBaselineHandler(process.env.BENCH_KEY ?? 'bench-key'));
const server = createServer((req, res) => {
  shapeForExpress(req, res);
  app(req, res);
});
server.listen(0, '127.0.0.1', () =>
  console.log(`shaped Express listening on http://127.0.0.1:${server.address().port}/v1`),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
