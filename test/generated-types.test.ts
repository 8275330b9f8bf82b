import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without type declarations.
import { generateTypes } from '../scripts/generate-types-source.mjs';

describe('src/generated/openapi.ts', () => {
  it('is what openapi-typescript makes of openapi.yaml now (npm run build regenerates it)', async () => {
    const committed = readFileSync(new URL('../src/generated/openapi.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await (generateTypes as () => Promise<string>)());
  });

  it('gives Pet the fields of the interface (§2), status as the PetStatus union', () => {
    const text = readFileSync(new URL('../src/generated/openapi.ts', import.meta.url), 'utf8');
    expect(text).toContain('PetStatus: "available" | "pending" | "sold";');
    expect(text).toMatch(/Pet: components\["schemas"\]\["NewPet"\] & \{[^}]*id: number;/);
  });
});
