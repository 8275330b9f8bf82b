import { Agent, buildConnector, EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import type { Socket } from 'node:net';

/** How requests leave this process: the trust settings and limits of one dispatcher. */
export interface OutgoingOptions {
  /** PEM text of the certificate authorities to trust instead of Node's bundled roots (as `curl --cacert`). */
  ca?: string | Buffer;
  /** Accept any certificate of the target (not of a proxy): for a test deployment only. */
  insecure?: boolean;
  /** Time to wait for the response headers, and between body chunks, in milliseconds. Default 300000 (undici's). */
  timeout?: number;
  /** The largest response head accepted, in bytes. Default 16384 (Node's `--max-http-header-size`). */
  maxHeaderSize?: number;
  /** Connections per origin. Default: unlimited (undici's). */
  connections?: number;
  /**
   * Called with each connection to the target before undici uses it (the proxy's filter of interim answers): a
   * direct one, and one tunnelled through `HTTPS_PROXY`/`HTTP_PROXY` (the tunnel's socket, after its TLS when the
   * target is HTTPS), never the connection to the forward proxy itself.
   */
  onConnection?: (socket: Socket) => void;
}

/**
 * One undici dispatcher for every outgoing request of a command: `HTTPS_PROXY`/`HTTP_PROXY` (and lower case)
 * and `NO_PROXY` are honoured through undici's `EnvHttpProxyAgent`, read once when the dispatcher is made. The CA
 * and the insecure switch apply to the target's TLS whether or not a proxy tunnels it; the CA also to an HTTPS proxy.
 * Redirects are never followed (undici follows none without an interceptor): a 3xx is an answer for the caller.
 * @example const dispatcher = createOutgoingDispatcher({ ca: readFileSync('ca.pem') });
 * await request('https://internal.example/v1/pets', { dispatcher });
 */
export function createOutgoingDispatcher(options: OutgoingOptions = {}): Dispatcher {
  const tls = {
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
  };
  const common = {
    connect: tls,
    ...(options.timeout !== undefined ? { headersTimeout: options.timeout, bodyTimeout: options.timeout } : {}),
    ...(options.maxHeaderSize !== undefined ? { maxHeaderSize: options.maxHeaderSize } : {}),
    ...(options.connections !== undefined ? { connections: options.connections } : {}),
  };
  const env = process.env;
  // Without a proxy variable every request goes direct: a plain Agent, which skips EnvHttpProxyAgent's per-request
  // URL parse and NO_PROXY lookup (the validating proxy forwards thousands of requests a second).
  // (The same reading of the variables as EnvHttpProxyAgent's: lower case first, an empty value is none.)
  const { onConnection } = options;
  if (!(env.http_proxy ?? env.HTTP_PROXY) && !(env.https_proxy ?? env.HTTPS_PROXY)) {
    if (!onConnection) return new Agent(common);
    // undici's own connector (TLS settings, its 10 s connect timeout), then the caller's look at the socket.
    return new Agent({ ...common, connect: lookingAt(buildConnector({ ...tls, timeout: 10_000 }), onConnection) });
  }
  return new EnvHttpProxyAgent({
    ...common,
    // Each origin's pool, direct (NO_PROXY) or behind a tunnel, connects through the caller's look at the socket.
    ...(onConnection ? { factory: poolsLookingAt(onConnection) } : {}),
    requestTls: tls,
    // NO_PROXY read here, once, rather than from the environment on every request.
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
    ...(options.ca !== undefined ? { proxyTls: { ca: options.ca } } : {}),
  });
}

/** `connector`, then `onConnection` with each socket it made, before undici uses it. */
function lookingAt(
  connector: buildConnector.connector,
  onConnection: (socket: Socket) => void,
): buildConnector.connector {
  return function connectAndLook(connectOptions, callback) {
    void connector(connectOptions, (error, socket) => {
      if (error) return callback(error, null);
      onConnection(socket);
      callback(null, socket);
    });
  };
}

/**
 * The origin pools of an EnvHttpProxyAgent, each connecting through `onConnection`. Its ProxyAgent hands a pool the
 * tunnel (a function: CONNECT through the forward proxy, then TLS to the target); its direct Agent (NO_PROXY) the
 * TLS settings, from which undici's own connector is built as a Pool would build it.
 */
function poolsLookingAt(onConnection: (socket: Socket) => void) {
  return function poolFor(origin: string | URL, options: Pool.Options): Dispatcher {
    const { connect } = options;
    const connector =
      typeof connect === 'function'
        ? connect
        : buildConnector({ ...connect, timeout: options.connectTimeout ?? 10_000 });
    return new Pool(origin, { ...options, connect: lookingAt(connector, onConnection) });
  };
}
