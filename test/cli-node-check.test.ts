import { describe, expect, it } from 'vitest';
import { runProcess, cliFile } from './support/cli.js';
import { SUPPORTED_NODE } from '../src/commands/check-node.js';

// The CLI on a Node it does not support: this Node, told it is another version before the CLI starts (the check
// reads `process.version`; installing Node 18 for the test would cost a download on every CI run).
const posing = (version: string) =>
  `data:text/javascript,Object.defineProperty(process,'version',{value:'${version}'})`;

describe('every command on an unsupported Node', () => {
  it.each([
    ['mock', ['mock', '--port', '0']],
    ['contract', ['contract', 'http://127.0.0.1:9/v1']],
    ['proxy', ['proxy', '--upstream', 'http://127.0.0.1:9/v1', '--port', '0']],
    ['fixtures', ['fixtures', '--from-har', 'missing.har']],
  ])('%s refuses with one line and exit 2', async (_name, args) => {
    for (const version of ['v18.20.4', 'v21.7.3']) {
      const result = await runProcess(process.execPath, ['--import', posing(version), cliFile, ...args], {
        env: process.env,
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `petstore-kit: Node ${version} is not supported; petstore-kit needs Node ${SUPPORTED_NODE}\n`,
      );
    }
  });
});
