import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate and its key, as files (for `--ca`) and as bytes (for `https.createServer`). */
export interface SelfSigned {
  keyFile: string;
  certFile: string;
  key: Buffer;
  cert: Buffer;
}

/**
 * A self-signed certificate for 127.0.0.1, valid a day, written into `dir` (key.pem, cert.pem) by openssl: an HTTPS
 * upstream or target that no bundled root trusts, so that a test can watch it refused, then trusted by `--ca`.
 */
export function selfSignedCertificate(dir: string): SelfSigned {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile, key: readFileSync(keyFile), cert: readFileSync(certFile) };
}
