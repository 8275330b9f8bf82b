// Writes the real-documents corpus (test/fixtures/real-documents/corpus.json) into a folder, each document taken
// byte for byte from the commit its manifest entry names, out of local git copies of the public repositories (one
// `<owner>+<name>/repo` git directory each, as a mirror of GitHub lays them out), and checks each against the
// SHA-256 the manifest records. Nothing is downloaded here: the copies must already be on the machine.
//
//   node scripts/gather-real-documents.mjs --mirrors /path/to/mirrors --out /path/to/real-documents
//
// --out defaults to $PETSTORE_REAL_DOCUMENTS. A document whose repository is missing is named, and the exit code
// is 1; one whose bytes differ from the manifest's SHA-256 likewise (the commit in the manifest is the truth).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const manifestPath = fileURLToPath(new URL('../test/fixtures/real-documents/corpus.json', import.meta.url));
const { values } = parseArgs({ options: { mirrors: { type: 'string' }, out: { type: 'string' } } });
const out = values.out ?? process.env.PETSTORE_REAL_DOCUMENTS;
if (!values.mirrors || !out) {
  console.error('usage: node scripts/gather-real-documents.mjs --mirrors DIR --out DIR (or PETSTORE_REAL_DOCUMENTS)');
  process.exit(2);
}

const { documents } = JSON.parse(readFileSync(manifestPath, 'utf8'));
let failed = 0;
for (const document of documents) {
  const { repository, commit, path } = document.origin;
  const gitDir = join(values.mirrors, repository.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    console.error(`${document.file}: no copy of ${repository} at ${gitDir}`);
    failed++;
    continue;
  }
  const bytes = execFileSync('git', ['-C', gitDir, 'show', `${commit}:${path}`], { maxBuffer: 64 * 1024 * 1024 });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (document.sha256 !== undefined && document.sha256 !== sha256) {
    console.error(
      `${document.file}: ${repository}@${commit}:${path} has SHA-256 ${sha256}, the manifest says ${document.sha256}`,
    );
    failed++;
    continue;
  }
  const target = join(out, document.file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
  console.log(`${document.file}  ${bytes.length} bytes`);
}
console.log(`${documents.length - failed} of ${documents.length} documents written to ${out}`);
process.exitCode = failed ? 1 : 0;
