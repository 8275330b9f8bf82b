import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const hooks = new URL('./record-imports.mjs', import.meta.url).href;

/**
 * Every module URL the ESM loader resolves, and every file in the CommonJS cache, when a fresh Node process imports
 * `entry` and then runs `then` (a JavaScript function body with the imported module as `lib`). Nothing is timed:
 * the last resolution (`node:os`, through import.meta.resolve) marks the end of the list, since one port delivers
 * in order.
 */
export function importsOf(entry: URL, then = ''): Promise<string[]> {
  const script = `
    import { register, createRequire } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    register(${JSON.stringify(hooks)}, { data: { port: port2 }, transferList: [port2] });
    const urls = [];
    const done = new Promise((resolve) => port1.on('message', (url) => (url === 'node:os' ? resolve() : urls.push(url))));
    const lib = await import(${JSON.stringify(entry.href)});
    await (async (lib) => { ${then} })(lib);
    import.meta.resolve('node:os');
    await done;
    port1.close();
    const cjs = Object.keys(createRequire(import.meta.url).cache);
    process.stdout.write(JSON.stringify([...urls, ...cjs]));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`node exited ${code}: ${err}`)),
    );
  });
}
