// A self-signed certificate for the server's TLS (TLS_CERT_FILE, TLS_KEY_FILE) in tests and benches. Node
// built-ins and Debian's openssl only: the benches use it outside vitest.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** A one-day certificate for localhost and 127.0.0.1, in a fresh temporary folder; `remove` deletes the folder. */
export function throwawayCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-tls-'))
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      ...['-keyout', keyFile, '-out', certFile],
    ],
    { stdio: 'ignore' },
  )
  return { dir, certFile, keyFile, remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}
