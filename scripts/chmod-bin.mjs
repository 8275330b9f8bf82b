// Build step: make package.json's bin files executable. tsc writes dist/cli.js without the x bit, and dist/ is
// emptied before each build; npm sets the bit when it links a bin, but `npx petstore-kit` in a clone reuses its
// earlier link (~/.npm/_npx), so a rebuilt dist/cli.js must carry the bit itself ("sh: petstore-kit: Permission denied").
import { chmodSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const { bin } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
for (const file of typeof bin === 'string' ? [bin] : Object.values(bin ?? {}))
  chmodSync(fileURLToPath(new URL(file, root)), 0o755);
