// Module hooks (node:module register) that report every module URL resolved by the ESM loader to the main thread,
// so a test can see what an import really loads: `initialize` receives a MessagePort, `resolve` posts each URL.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}
