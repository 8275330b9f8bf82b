import type { Spec } from '../openapi/load-spec.js';
import { describeFetchError } from './send-request.js';

/** The target cannot be checked at all: unreachable, not the API at that URL, or the key refused. Exit code 2. */
export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/**
 * One request before the suite, so that a wrong URL or key ends the run with one line instead of eighty failures:
 * `GET <base>/pets?limit=1` with the key must get an HTTP answer that is neither 404 (no API at that base URL)
 * nor 401/403 (the key is refused). Anything else is for the suite to judge.
 */
export async function probeTarget(spec: Spec, config: { baseUrl: string; apiKey: string; timeout: number }): Promise<void> {
  const list = spec.operationById.get('listPets');
  const url = `${config.baseUrl.replace(/\/+$/, '')}${list?.path ?? '/pets'}?limit=1`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(config.timeout) });
    await response.arrayBuffer();
  } catch (error) {
    throw new TargetError(`cannot reach ${config.baseUrl}: ${describeFetchError(error, config.timeout)}`);
  }
  if (response.status === 404) {
    throw new TargetError(`GET ${url} answered 404: is ${config.baseUrl} the API's base URL? It ends in the version segment, e.g. https://host/v1`);
  }
  if (response.status === 401 || response.status === 403) {
    throw new TargetError(`the target refused the API key (GET ${url} answered ${response.status}); check --api-key or PETSTORE_API_KEY`);
  }
}
