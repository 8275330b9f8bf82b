import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isSupportedNode, SUPPORTED_NODE } from './check-node.js';

describe('isSupportedNode', () => {
  it.each([
    ['v18.20.4', false],
    ['v20.18.3', false],
    ['v20.19.0', true],
    ['v20.20.2', true],
    ['v21.7.3', false],
    ['v22.0.0', false],
    ['v22.11.0', false],
    ['v22.12.0', true],
    ['v24.21.0', true],
    ['v26.10.0', true],
  ])('%s → %s', (version, want) => {
    expect(isSupportedNode(version)).toBe(want);
  });

  it('implements the range package.json declares', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(SUPPORTED_NODE);
  });
});
