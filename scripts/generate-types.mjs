// Build step: generates src/generated/openapi.ts (the `paths` and `components` types) from openapi.yaml with
// openapi-typescript, so `Pet` and `NewPet` are never written by hand. The output is committed, so an editor and
// `npm run typecheck` work before a build; `npm run build` regenerates it, and test/generated-types.test.ts fails when
// the committed file no longer matches openapi.yaml.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateTypes } from './generate-types-source.mjs';

const out = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
writeFileSync(out, await generateTypes());
