/**
 * The agent reaching the console over HTTPS, as a plant reaches a console behind a TLS proxy: here a proxy
 * of the test's own whose certificate a CA made for the run signed. Without that CA the agent trusts
 * nothing it says: it reads no configuration, stores nothing, and logs why (the certificate, not just
 * "fetch failed"). Given the CA through NODE_EXTRA_CA_CERTS (docs/edge.md, "Install"), it reads its
 * configuration, polls, forwards, and every reading it queued is stored once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passThrough } from './console-stub';
import { makeCertificates } from './test/certificates';
import { openEdgeScene, POLLED_SIGNALS, sleep, until, type EdgeScene } from './test/edge-scene';

describe('the edge agent forwarding over HTTPS', () => {
  let scene: EdgeScene;
  let dir: string;
  let ca: string;
  let proxy: https.Server;
  let proxyUrl: string;

  beforeAll(async () => {
    scene = await openEdgeScene({});
    dir = mkdtempSync(path.join(tmpdir(), 'edge-https-'));
    const files = makeCertificates(dir);
    ca = files.ca;
    // TLS ends here; the request goes on to the console as it came.
    proxy = https.createServer({ key: readFileSync(files.key), cert: readFileSync(files.cert) }, (req, res) =>
      passThrough(scene.consolePort, req, res),
    );
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await scene?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('trusts the console only through the CA it was given, and then stores every reading once', async () => {
    scene.startAgent({ url: proxyUrl });
    await until(
      () => scene.agentLog().includes('UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
      30_000,
      'the certificate refused in the log',
    );
    await sleep(1_000);
    expect(await scene.storedCount()).toBe(0);
    await scene.killAgent();

    await scene.polling({ url: proxyUrl, env: { NODE_EXTRA_CA_CERTS: ca } });
    await until(
      async () => (await scene.storedCount()) > POLLED_SIGNALS * 4,
      60_000,
      'readings stored over HTTPS',
    );
    await scene.drainAndStop();
    const { stored } = await scene.expectJournalStoredOnce();
    expect(stored.length).toBeGreaterThan(POLLED_SIGNALS * 4);
  });
});
