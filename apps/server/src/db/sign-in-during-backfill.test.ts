import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, dialectUnderTest, type TestApp } from '../test/test-app';

/** How long the test signs in while the history is written. */
const SIGN_IN_WINDOW_MS = 8_000;
/** Sign-ins running side by side, as several people opening the console at once. */
const PARALLEL_SIGN_INS = 3;

/** One process per core spinning on a busy loop: the loaded machine the 503s were seen on. */
function loadEveryCore(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The demo's first start (`npm start`) writes its history in the background while the server answers. A
 * sign-in meanwhile must wait its turn for the write lock (db/sqlite-writer-gate.ts), never be refused
 * with 503 databaseBusy (docs/operations.md, "SQLite: who writes, and for how long").
 */
describe(`sign-ins while the first start back-fills the history (${dialectUnderTest})`, () => {
  let t: TestApp;
  let spinners: ChildProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp({ simulator: { enabled: true, backfillDays: 1 } });
    await t.http.primeXsrf();
  }, 60_000);
  afterAll(async () => {
    for (const spinner of spinners) spinner.kill();
    await t?.close();
  });

  it('answers every sign-in on a loaded machine, none with 503', { timeout: 60_000 }, async () => {
    let historyWritten = false;
    void t.background()!.simulator!.backfilled.then(() => (historyWritten = true));
    // The history is being stored: its first batch is in.
    await until(async () => {
      const row = await t.ctx.db.selectFrom('telemetry_raw').select('ts').limit(1).executeTakeFirst();
      return row !== undefined;
    }, 30_000);
    spinners = loadEveryCore();

    const statuses: number[] = [];
    let duringHistory = 0;
    const end = Date.now() + SIGN_IN_WINDOW_MS;
    const signInLoop = async (n: number) => {
      while (Date.now() < end && !historyWritten) {
        const res = await t.http.post('/api/users/login', DEMO.admin, { remoteAddress: `10.0.0.${n}` });
        statuses.push(res.statusCode);
        if (!historyWritten) duringHistory += 1;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_SIGN_INS }, (_, n) => signInLoop(n + 1)));

    // Sign-ins did meet the history's writes (a machine that wrote it all at once would prove nothing).
    expect(duringHistory).toBeGreaterThanOrEqual(PARALLEL_SIGN_INS);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
