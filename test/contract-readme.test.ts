import { describe, expect, it } from 'vitest';
import { checkIds } from '../src/contract/base/check-ids.js';
import { contractHelp } from '../src/commands/contract.js';

import { docs as readme, section } from './support/docs.js';

describe('README documents the contract suite', () => {
  it('lists every check id in the checks table, and no id that does not exist', () => {
    const table = section('## Checks');
    const documented = [...table.matchAll(/^\| `([a-z0-9.-]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(checkIds);
  });

  it('documents every option of the command', () => {
    const flags = [...contractHelp.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]!);
    expect(flags.length).toBeGreaterThanOrEqual(9);
    for (const flag of flags) expect(readme).toContain(`| \`${flag}`);
  });
});
