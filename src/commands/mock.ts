import { parseArgs } from 'node:util';
import { createMockServer } from '../mock/server.js';
import { DEFAULT_MAX_PETS } from '../mock/store.js';
import { DEFAULT_BODY_LIMIT, DEV_API_KEY } from '../mock/create-mock.js';
import { UsageError, parseInteger } from './usage-error.js';

export const mockHelp = `Usage: petstore-kit mock [options]

Starts the stateful Petstore mock and prints its base URL when ready.

Options:
  --port N            port to listen on (default 4010; 0 picks a free one)
  --host HOST         address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --api-key KEY       an accepted bearer key; repeat for more (default: PETSTORE_API_KEYS, comma-separated,
                      else the development key "${DEV_API_KEY}")
  --spec FILE         the OpenAPI 3 document (default: the bundled openapi.yaml)
  --fixtures FILE     seed pets, a JSON array of Pet (default: the bundled fixtures/pets.json)
  --body-limit BYTES  largest request body accepted (default ${DEFAULT_BODY_LIMIT})
  --max-pets N        most pets the store holds, fixtures included (default ${DEFAULT_MAX_PETS}); a create
                      beyond it gets 409 store_full
  --cors-origin URL   allow only this browser origin; repeat for more (default: any origin)
  --no-cors           send no CORS headers
  -h, --help          show this help
`;

/** `petstore-kit mock`: flags → a running server, stopped cleanly by Ctrl-C or SIGTERM. */
export async function runMock(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      spec: { type: 'string' },
      fixtures: { type: 'string' },
      'body-limit': { type: 'string' },
      'max-pets': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'no-cors': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(mockHelp);
    return 0;
  }
  const emptyKey = values['api-key']?.some((key) => key.trim() === '');
  if (emptyKey) throw new UsageError('--api-key must not be empty');
  const origins = values['cors-origin'];
  const server = await createMockServer({
    port: parseInteger('port', values.port, 0, 65535) ?? 4010,
    host: values.host ?? '127.0.0.1',
    apiKeys: values['api-key'],
    spec: values.spec,
    fixtures: values.fixtures,
    bodyLimit: parseInteger('body-limit', values['body-limit'], 1),
    maxPets: parseInteger('max-pets', values['max-pets'], 1),
    cors: values['no-cors'] ? false : { origins: origins?.length ? origins : '*' },
  });
  const { mock } = server;
  console.log(`petstore-kit mock listening on ${server.url}`);
  console.log(`  ${mock.store.size} pets from the fixtures; ${mock.spec.operations.length} operations from the document`);
  console.log(
    mock.usingDevKey
      ? `  API key: ${DEV_API_KEY} (the development key; set --api-key or PETSTORE_API_KEYS to choose your own)`
      : `  API keys: ${mock.apiKeys.length} configured (not shown)`,
  );
  console.log(`  try: curl -H 'Authorization: Bearer ${mock.usingDevKey ? DEV_API_KEY : '<your key>'}' ${server.url}/pets?limit=2`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  console.log('petstore-kit mock stopped');
  return 0;
}
