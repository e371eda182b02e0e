import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';

/**
 * The order buildApp starts its long-running parts in, which close runs backwards (docs/architecture.md,
 * "Long-running parts"). What depends on what at shutdown is held here, so that a part added in the
 * wrong place fails a test rather than a SIGTERM in production.
 */
describe('the app starts and stops its long-running parts in order', () => {
  it('stops the jobs before the lease and the bus, and the writer thread and the database last', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'solar-lifecycle-'));
    try {
      const config = loadConfig(
        {
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          JWT_SECRET: randomBytes(32).toString('hex'),
          DEMO: 'false',
          SIMULATOR: 'false',
          MODBUS_POLLER: 'false',
          SQLITE_WRITER_THREAD: 'true',
        },
        {},
      );
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
});
