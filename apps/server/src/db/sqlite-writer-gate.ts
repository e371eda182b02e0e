/**
 * Two connections write the SQLite file: the main one (the event loop's, through Kysely) and the telemetry
 * writer thread's (telemetry-store/batch-writer.ts). SQLite lets one write at a time, and a connection that
 * finds the lock taken waits in its busy handler, synchronously: on the main connection that would block
 * the event loop for as long as a batch takes, and fail the write (503) past SQLITE_BUSY_TIMEOUT_MS. Under
 * sustained ingest the writer also leaves gaps of well under a millisecond between its batches, which the
 * busy handler (sleeping 1-100 ms between tries) would miss.
 *
 * So the two take turns through a shared Int32Array instead:
 * - Before it writes (a transaction's `begin`, or a write on its own), the main connection raises its
 *   intent and then *awaits* (Atomics.waitAsync, the event loop stays free) until the writer is not in a
 *   transaction; the lock is then free, and its busy handler does not wait. The intent goes down when the
 *   transaction ends or the write has run.
 * - The writer thread, before each batch, says it is in a transaction and only then looks at the intent:
 *   if it is up, it steps back and waits (Atomics.wait, on its own thread) until it is down, at most
 *   INTENT_WAIT_MS. Raising one's own flag before reading the other's (sequentially consistent Atomics)
 *   means the two never both go ahead.
 */
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDialectConfig } from 'kysely';

/** Node 16+ has it; TypeScript's lib declares it from es2024 on. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync: (
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ) => { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

const MAIN_INTENT = 0;
const WRITER_IN_TRANSACTION = 1;

/** Longest the writer steps back for the main connection's intent (a transaction spanning awaits). */
export const INTENT_WAIT_MS = 1_000;

/** The shared turn-taking state of one database file. */
export function createWriterGate(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** Main connection: raise the intent and wait, without blocking the event loop, for the writer's batch. */
export async function mainWaitsForWriter(gate: Int32Array): Promise<void> {
  Atomics.store(gate, MAIN_INTENT, 1);
  while (Atomics.load(gate, WRITER_IN_TRANSACTION) === 1) {
    const wait = waitAsync(gate, WRITER_IN_TRANSACTION, 1, 1_000);
    if (wait.async) await wait.value;
  }
}

/** Main connection: its write or transaction has ended. */
export function mainDone(gate: Int32Array): void {
  Atomics.store(gate, MAIN_INTENT, 0);
  Atomics.notify(gate, MAIN_INTENT);
}

/** Writer thread: enter a batch's transaction once the main connection does not want to write. */
export function writerEnters(gate: Int32Array, waitMs = INTENT_WAIT_MS): void {
  const deadline = Date.now() + waitMs;
  for (;;) {
    Atomics.store(gate, WRITER_IN_TRANSACTION, 1);
    if (Atomics.load(gate, MAIN_INTENT) === 0 || Date.now() >= deadline) return;
    writerLeaves(gate);
    Atomics.wait(gate, MAIN_INTENT, 1, Math.max(1, deadline - Date.now()));
  }
}

/** Writer thread: out of its transaction (also called for it by the main thread once it has died). */
export function writerLeaves(gate: Int32Array): void {
  Atomics.store(gate, WRITER_IN_TRANSACTION, 0);
  Atomics.notify(gate, WRITER_IN_TRANSACTION);
}

function isBusy(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * What the log of a write refused for a held lock says (plugins/errors.ts): the statement, whether it took
 * its turn, and whether this process's writer thread was in a batch. A gated write that still met the lock
 * means another process holds it; an ungated one means a writer slipped past the gate.
 */
function describeBusy(error: Error, text: string, gated: boolean, gate: Int32Array): void {
  Object.assign(error, {
    statement: text.length > 200 ? `${text.slice(0, 200)}…` : text,
    tookTurn: gated,
    writerThreadInBatch: Atomics.load(gate, WRITER_IN_TRANSACTION) === 1,
  });
}

/**
 * Kysely's SQLite dialect whose queries on the main connection take their turn with the writer thread (see
 * above). `inTransaction` and `isRead` are the connection's own: better-sqlite3's flag, and whether a text
 * only reads (its prepared statement's `readonly`; a write with RETURNING also returns rows, so `reader`
 * would let it past the gate: the sign-in's attempt count once met the writer's lock that way, 503).
 */
export class GatedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly gate: Int32Array,
    private readonly connection: { inTransaction: () => boolean; isRead: (sql: string) => boolean },
  ) {
    super(config);
  }

  override createDriver(): SqliteDriver {
    const { gate, connection } = this;
    return new (class extends SqliteDriver {
      override async acquireConnection(): Promise<DatabaseConnection> {
        const inner = await super.acquireConnection();
        return {
          executeQuery: async (query) => {
            const begins = query.sql === 'begin';
            const ends = query.sql === 'commit' || query.sql === 'rollback';
            const alone = !begins && !ends && !connection.inTransaction() && !connection.isRead(query.sql);
            if (begins || alone) await mainWaitsForWriter(gate);
            try {
              return await inner.executeQuery(query);
            } catch (error) {
              if (isBusy(error)) describeBusy(error, query.sql, begins || alone, gate);
              throw error;
            } finally {
              // A `begin` that failed has no end to lower the intent.
              if (ends || alone || (begins && !connection.inTransaction())) mainDone(gate);
            }
          },
          streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
        };
      }
    })(this.config);
  }
}
