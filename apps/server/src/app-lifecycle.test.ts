import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { listenerApplicationName } from './cluster/cluster-bus';
import { quietConfigIn, TEST_DATABASE_URL, underSchemaLock } from './test/test-app';

/**
 * The order buildApp starts its long-running parts in, which close runs backwards (docs/architecture.md,
 * "Long-running parts"). What depends on what at shutdown is held here, so that a part added in the
 * wrong place fails a test rather than a SIGTERM in production.
 */

describe('the app starts and stops its long-running parts in order', () => {
  it('stops the jobs before the lease and the bus, and the writer thread and the database last', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-lifecycle-'));
    try {
      const config = quietConfigIn(dataDir, { SQLITE_WRITER_THREAD: 'true' });
      const { app, parts, telemetryWriter } = await buildApp(config);
      expect(telemetryWriter).toBeDefined();
      const stops = parts.order().reverse();
      const stoppedBefore = (first: string, then: string) => {
        expect(stops, `${first} stops before ${then}`).toContain(first);
        expect(stops.indexOf(first), `${first} stops before ${then}`).toBeLessThan(stops.indexOf(then));
      };
      // Another node takes the jobs over as soon as the lease is released: none of them may still run.
      for (const job of ['report schedules', 'camera probe', 'background', 'raw retention', 'KPI refresh'])
        stoppedBefore(job, 'jobs lease');
      stoppedBefore('jobs lease', 'cluster bus');
      // What the collectors counted last is written.
      stoppedBefore('background', 'ingest counts');
      // The writer thread is flushed after everything that stores telemetry, the database closed last.
      expect(stops.slice(-2)).toEqual(['telemetry writer thread', 'database']);

      await app.ready();
      await app.close();
      // Closed: the database answers no more.
      await expect(app.inject('/api/health')).rejects.toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // The PostgreSQL bus connects as it is built. An app closed without ever being ready (bench:mqtt drives
  // its collector without HTTP) kept that connection open, and with it the process, for good.
  it.runIf(TEST_DATABASE_URL)(
    'ends the cluster bus connection at close even when the app was never ready',
    async () => {
      const databaseUrl = TEST_DATABASE_URL!;
      const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-lifecycle-'));
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const observer = new pg.Client({ connectionString: databaseUrl });
      await observer.connect();
      try {
        const config = quietConfigIn(dataDir, { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });
        const { app, ctx } = await underSchemaLock(() => buildApp(config));
        await ctx.cluster.ready();
        const listeners = async () =>
          Number(
            (
              await observer.query<{ n: string }>(
                'select count(*) as n from pg_stat_activity where application_name = $1',
                [listenerApplicationName(config.cluster.nodeId)],
              )
            ).rows[0]!.n,
          );
        expect(await listeners()).toBe(1);

        await app.close();
        // The backend leaves pg_stat_activity a moment after the client hung up.
        const deadline = Date.now() + 5_000;
        while ((await listeners()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        expect(await listeners()).toBe(0);
      } finally {
        await underSchemaLock(() => observer.query(`drop schema if exists "${schema}" cascade`));
        await observer.end();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
