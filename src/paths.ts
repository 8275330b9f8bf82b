import { fileURLToPath } from 'node:url';

// Both src/ (under vitest and tsx) and dist/ sit one level below the package root.
export const packageRoot = fileURLToPath(new URL('..', import.meta.url));
export const defaultSpecFile = fileURLToPath(new URL('../openapi.yaml', import.meta.url));
export const defaultFixturesFile = fileURLToPath(new URL('../fixtures/pets.json', import.meta.url));
