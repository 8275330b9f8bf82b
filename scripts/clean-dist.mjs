// Build step: empty dist/ first, so a file whose source was deleted or renamed (or a source map from an older build)
// is never packed.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

rmSync(fileURLToPath(new URL('../dist/', import.meta.url)), { recursive: true, force: true });
