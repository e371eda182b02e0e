import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree, makeUser, type TestUser } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

/**
 * A second process holding `BEGIN EXCLUSIVE` on the database file, as a backup tool or an external writer
 * would: it prints `locked` once it holds the lock, and commits when its stdin closes or after `holdMs`.
 */
function holdLock(file: string, holdMs: number): { child: ChildProcess; locked: Promise<void> } {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    db.prepare("insert into companies (name, created_at, updated_at) values ('holder', 0, 0)").run();
    process.stdout.write('locked\\n');
    const release = () => { db.exec('COMMIT'); db.close(); process.exit(0); };
    process.stdin.on('end', release);
    process.stdin.resume();
    setTimeout(release, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], {
    // better-sqlite3 resolves from the server package.
    cwd: path.resolve(__dirname, '../..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
  return { child, locked };
}

/** Hole 9 of docs/security.md: a locked SQLite file must not stall the server. SQLite only. */
describe.skipIf(dialectUnderTest !== 'sqlite')('SQLite held by another process', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    await t.http.primeXsrf();
  });
  afterAll(() => t.close());

  it(
    'keeps health and reads answering, and refuses writes quickly with 503 and Retry-After',
    { timeout: 60_000 },
    async () => {
      const config = t.ctx.config.database;
      if (config.dialect !== 'sqlite') throw new Error('SQLite only');
      const { child, locked } = holdLock(config.file, 10_000);
      await locked;
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      try {
        const timed = async <T>(work: () => Promise<T>) => {
          const start = performance.now();
          const result = await work();
          return { result, ms: performance.now() - start };
        };
        const health = await timed(() => t.http.get('/api/health'));
        expect(health.result.statusCode).toBe(200);
        expect(health.ms).toBeLessThan(1_000);

        const read = await timed(() => t.http.get('/api/companies', { token: admin.token }));
        expect(read.result.statusCode).toBe(200);
        expect(read.ms).toBeLessThan(1_000);

        for (let i = 0; i < 3; i++) {
          const write = await timed(() =>
            t.http.post('/api/companies/0', { name: `Blocked ${i}` }, { token: admin.token }),
          );
          expect(write.result.statusCode, write.result.body).toBe(503);
          expect(write.result.json()).toMatchObject({ detail: 'errors.databaseBusy' });
          expect(Number(write.result.headers['retry-after'])).toBeGreaterThan(0);
          expect(write.ms).toBeLessThan(1_000);
        }
        lag.disable();
        // better-sqlite3 waits on the lock inside the event loop: the wait must stay short.
        expect(lag.max / 1e6).toBeLessThan(1_000);
      } finally {
        lag.disable();
        child.stdin!.end();
        if (child.exitCode === null) await once(child, 'exit');
      }
      // Once the lock is gone, writes go through again.
      const after = await t.http.post('/api/companies/0', { name: 'After the lock' }, { token: admin.token });
      expect(after.statusCode, after.body).toBe(200);
    },
  );
  it(
    'keeps health, reads and other writes answering while a telemetry batch waits for the lock',
    { timeout: 60_000 },
    async () => {
      const config = t.ctx.config.database;
      if (config.dialect !== 'sqlite') throw new Error('SQLite only');
      const tree = await makeTree(t, admin.token, 'Lock wait');
      const key = (
        await t.http.post(`/api/plants/${tree.plantId}/ingest-key`, {}, { token: admin.token })
      ).json<{ key: string }>().key;
      const ingest = (ts: number) =>
        t.http.post(
          '/api/telemetry',
          { points: [{ signal_id: tree.signalId, ts, value: 1 }] },
          { headers: { 'x-api-key': key }, xsrf: false },
        );
      // A key's first batch also writes on the event loop's connection (the key's first use); not this one.
      expect((await ingest(Date.now() - 120_000)).statusCode).toBe(200);
      const { child, locked } = holdLock(config.file, 20_000);
      await locked;
      try {
        // The writer thread takes the batch and waits out the lock; the answer comes once it is gone.
        let answered = '';
        const batch = ingest(Date.now() - 60_000).then((res) => {
          answered = `${res.statusCode} ${res.body}`;
          return res;
        });
        await new Promise((r) => setTimeout(r, 1_000));
        expect(answered).toBe('');
        const timed = async <T>(work: () => Promise<T>) => {
          const start = performance.now();
          const result = await work();
          return { result, ms: performance.now() - start };
        };
        // A write of the event loop's own connection meets the lock itself and is refused at once; it
        // does not queue behind the waiting batch, and neither do health and reads.
        const write = await timed(() =>
          t.http.post('/api/companies/0', { name: 'Beside the batch' }, { token: admin.token }),
        );
        expect(write.result.statusCode, write.result.body).toBe(503);
        expect(write.ms).toBeLessThan(1_000);
        const health = await timed(() => t.http.get('/api/health'));
        expect(health.result.statusCode).toBe(200);
        expect(health.ms).toBeLessThan(1_000);
        const read = await timed(() => t.http.get('/api/companies', { token: admin.token }));
        expect(read.result.statusCode).toBe(200);
        expect(read.ms).toBeLessThan(1_000);
        expect(answered).toBe('');
        child.stdin!.end();
        const stored = await batch;
        expect(stored.statusCode, stored.body).toBe(200);
        expect(stored.json()).toMatchObject({ stored: 1 });
      } finally {
        child.stdin!.end();
        if (child.exitCode === null) await once(child, 'exit');
      }
    },
  );
});
