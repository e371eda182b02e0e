import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedTileServer } from './tiles';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverEntry = path.join(repoRoot, 'apps/server/dist/server.js');

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Messages the server wrote to its outbox (no SMTP configured), oldest first. */
  outbox(): string[];
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server the way `npm start` runs it (same bundle, same defaults: SQLite in the data
 * directory, migrations, demo seed) on a free port with a fresh data directory.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run \`npm run build\` first`);
  // The map's tiles come from a local server unless the test names its own: the tests run offline.
  if (!env.MAP_TILE_URL) env = { ...env, MAP_TILE_URL: (await sharedTileServer()).template };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-e2e-'));
  // A port found free can be taken by another test file's server before ours binds it; the health check
  // would then be answered by that other server. So: our child must still be running a moment after it
  // answers, or we start again on another port.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawnServer(port, url, dataDir, env);
    let healthy: boolean;
    try {
      healthy = await waitHealthy(child, url);
    } catch (error) {
      // Not answering in time: stopped here, or it would go on loading the machine under the next files.
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
    if (healthy) {
      await new Promise((r) => setTimeout(r, 300));
      if (child.exitCode === null) return running(child, url, dataDir);
    }
    if (attempt === 3) throw new Error(`server exited with code ${child.exitCode} (3 attempts)`);
  }
}

/** Ends the child (SIGTERM, SIGKILL after 10 s) and resolves once it has exited. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(force);
}

// A test file's process can end without its afterAll (a hook timeout, a crash, an interrupted run); its
// servers must not outlive it.
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function spawnServer(port: number, url: string, dataDir: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      // The demo's simulator and poller are off unless a test asks: each test decides what data exists.
      SIMULATOR: 'false',
      // With it, the month only: the long-history plant's years and their KPI days (docs/simulator.md) are
      // a cost no browser test needs; a test that does passes SIMULATOR_LONG_HISTORY_DAYS.
      SIMULATOR_LONG_HISTORY_DAYS: '0',
      MODBUS_POLLER: 'false',
      // Test devices and cameras listen on loopback, which production refuses (docs/security.md, "Device
      // networks"); a test of the default passes DEVICE_NETWORKS_ALLOW: ''.
      DEVICE_NETWORKS_ALLOW: '127.0.0.0/8,::1/128',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * True once the server answers /api/health; false when the child exits first. The deadline stays under the
 * hook timeout (e2e/vitest.config.ts) so that this, not vitest, gives up and stops the child.
 */
async function waitHealthy(child: ChildProcess, url: string): Promise<boolean> {
  const deadline = Date.now() + 100_000;
  for (;;) {
    if (child.exitCode !== null) return false;
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become healthy within 100 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

function running(child: ChildProcess, url: string, dataDir: string): RunningServer {
  const outboxDir = path.join(dataDir, 'outbox');
  return {
    url,
    dataDir,
    outbox: () =>
      existsSync(outboxDir)
        ? readdirSync(outboxDir)
            .sort()
            .map((f) => readFileSync(path.join(outboxDir, f), 'utf8'))
        : [],
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
