import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../lib/db-errors';
import { createTestApp, dialectUnderTest, TEST_DATABASE_URL, type TestApp } from '../test/test-app';

describe('isDatabaseUnavailable', () => {
  it('knows a database that cannot be reached from other failures', () => {
    const withCode = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006', '08001'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    for (const code of ['23505', '42P01', 'SQLITE_BUSY', '57014'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

/**
 * PostgreSQL going away (stopped, restarted, connections killed) must not end the
 * process. Before the fix, a pool connection ended by the server emitted an unhandled 'error' and the
 * server exited. Here the app's own connections are terminated (only those: the database is shared).
 */
describe.skipIf(dialectUnderTest !== 'postgres')('PostgreSQL connections ended by the server', () => {
  let t: TestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  const terminate = (pids: number[]) =>
    admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);

  it('survives its idle pool connections being terminated and answers again', async () => {
    const rows = await Promise.all(
      Array.from({ length: 5 }, () =>
        sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(t.ctx.db),
      ),
    );
    const pids = [...new Set(rows.map((r) => Number(r.rows[0]!.pid)))];
    expect(pids.length).toBeGreaterThan(1);
    await terminate(pids);
    await new Promise((r) => setTimeout(r, 300));
    // The broken clients are dropped; health answers 200 again (new connections), never 500.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.http.get('/api/health');
      statuses.push(res.statusCode);
      if (res.statusCode === 200) break;
    }
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses.at(-1)).toBe(200);
  });

  it('survives a connection terminated inside a transaction: the transaction fails as unavailable', async () => {
    const outcome = await t.ctx.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        await terminate([Number(rows[0]!.pid)]);
        // Checked out and between two queries: the client's 'error' arrives with nobody listening.
        await new Promise((r) => setTimeout(r, 300));
        await sql`select 1`.execute(trx);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(outcome), String(outcome)).toBe(true);
    const res = await t.http.get('/api/health');
    expect(res.statusCode).toBe(200);
  });
});
