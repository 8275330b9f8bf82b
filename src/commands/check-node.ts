/** What package.json's `engines.node` admits; `check-node.test.ts` keeps the two the same. */
export const SUPPORTED_NODE = '^20.19.0 || >=22.12.0';

/**
 * Whether a Node version is in `SUPPORTED_NODE`: 20.19 or a later 20.x, or 22.12 and newer, the range vite (under
 * vitest, the contract runner) declares. On Node 21 `contract` crashes inside vitest (`util.styleText`), and on
 * Node 18 undici throws when it loads, so every command refuses any other Node with one line and exit 2.
 * @example isSupportedNode('v21.7.3') // false
 */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major === 20) return minor >= 19;
  if (major === 22) return minor >= 12;
  return major > 22;
}
