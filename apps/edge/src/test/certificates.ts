import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A CA and a certificate for 127.0.0.1 signed by it, made with openssl in `dir` for one test run: what a
 * broker or a console behind a private CA presents. Readable by all, since a Mosquitto started as root
 * reads them as the `mosquitto` user.
 */
export function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  writeFileSync(file('san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=Edge test CA'],
    ...['-keyout', file('ca.key'), '-out', file('ca.crt')],
  );
  openssl(
    ...['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1'],
    ...['-keyout', file('server.key'), '-out', file('server.csr')],
  );
  openssl(
    ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key')],
    ...['-CAcreateserial', '-days', '1', '-extfile', file('san.cnf'), '-out', file('server.crt')],
  );
  for (const name of ['ca.crt', 'server.crt', 'server.key']) chmodSync(file(name), 0o644);
  return { ca: file('ca.crt'), cert: file('server.crt'), key: file('server.key') };
}
