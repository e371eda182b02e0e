import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../config';
import type { Database } from './schema';
import { createWriterGate, GatedSqliteDialect } from './sqlite-writer-gate';
import { withStatementCache } from './statement-cache';
import { startWalCheckpointer, type WalCheckpointer, type WalCheckpointStats } from './wal-checkpointer';

export type Dialect = 'sqlite' | 'postgres';

/**
 * Letters that search treats as their plain Latin base, so that "isik" finds "Işık" and "stip" finds
 * "Štip" (Turkish, German, Macedonian Latin transliteration). Same order in both strings.
 */
export const SEARCH_FOLD_FROM = 'ıçğöşüâîûêäëïšžćčđáéíóúàèìòùñ';
export const SEARCH_FOLD_TO = 'icgosuaiueaeiszccdaeiouaeioun';
const foldMap = new Map([...SEARCH_FOLD_FROM].map((c, i) => [c, SEARCH_FOLD_TO[i]!]));

/** Lower case without accents and with İ, I, ı, i alike: the search key of both dialects (migration 0003). */
export function searchFold(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9 ]/g, (c) => (c === '\u0307' ? '' : (foldMap.get(c) ?? c)));
}
export type Db = Kysely<Database>;

/** Longest the server waits for a SQLite lock held by another process (docs/security.md, hole 9). */
export const SQLITE_BUSY_TIMEOUT_MS = 100;
/** What a request refused because PostgreSQL cannot be reached tells the client to wait. */
export const DATABASE_UNAVAILABLE_RETRY_AFTER_S = 5;
/** Longest a request waits for a new PostgreSQL connection before it answers 503. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;
/** What a write refused for a held lock tells the client to wait before trying again. */
export const DATABASE_BUSY_RETRY_AFTER_S = 2;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /**
   * The embedded SQLite database's own handle, for the ingest hot path's prepared statements
   * (telemetry-store/sqlite-store-io.ts). Use it only inside a Kysely transaction: Kysely serialises its one
   * connection, and a statement run beside it could land inside someone else's transaction.
   */
  sqlite?: SQLite.Database;
  /** Round trip to the database; throws when it is unreachable. */
  ping: () => Promise<void>;
  /** The PostgreSQL pool's connections (for /metrics); undefined on SQLite, which has no pool. */
  poolStats: () => { total: number; idle: number; waiting: number; max: number } | undefined;
  /** What the SQLite file database's checkpoint thread has done (db/wal-checkpointer.ts); else undefined. */
  walCheckpoints: () => WalCheckpointStats | undefined;
  /** SQLite: how the main connection and the telemetry writer thread take turns (sqlite-writer-gate.ts). */
  sqliteWriterGate?: Int32Array;
  /** The SQLite file database's checkpoint thread, while it runs (the telemetry writer hands it catch-ups). */
  walCheckpointer?: WalCheckpointer;
  close: () => Promise<void>;
}

/** Where the database reports what it survives: a lost PostgreSQL connection, a late WAL checkpoint. */
export interface DatabaseLog {
  warn(details: object, message: string): void;
}

/**
 * `log`: the server's logger (without one, the process's warnings). `onQuery`, for tests, is told of every
 * statement (Kysely's log hook), e.g. to count round trips.
 */
export interface OpenOptions {
  log?: DatabaseLog;
  onQuery?: (event: LogEvent) => void;
}

/** Opens the embedded SQLite database (WAL) or a PostgreSQL pool, as the configuration says. */
export function openDatabase(config: AppConfig['database'], options: OpenOptions = {}): DatabaseHandle {
  const warn: DatabaseLog['warn'] = options.log
    ? (details, message) => options.log?.warn(details, message)
    : (_details, message) => process.emitWarning(message);
  const log = options.onQuery ? { log: options.onQuery } : {};
  if (config.dialect === 'sqlite') {
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // better-sqlite3 blocks the event loop while it waits for a lock another process holds: wait briefly,
    // then fail, and the write answers 503 with Retry-After (plugins/errors.ts) while reads go on (WAL).
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    sqlite.function('search_fold', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? searchFold(value) : typeof value === 'number' ? String(value) : null,
    );
    const writerGate = createWriterGate();
    const statements = withStatementCache(sqlite, undefined, { beginImmediate: true });
    const db = new Kysely<Database>({
      // The telemetry writer thread is a second writing connection (telemetry-store/batch-writer.ts):
      // transactions begin immediate, and every write first waits its turn (sqlite-writer-gate.ts).
      dialect: new GatedSqliteDialect({ database: statements }, writerGate, {
        inTransaction: () => sqlite.inTransaction,
        // `readonly`, not `reader`: an INSERT … RETURNING (the sign-in's attempt count) returns rows but
        // writes, and ungated it met the writer's lock and failed after the busy timeout (503).
        isRead: (text) => statements.prepare(text).readonly,
      }),
      ...log,
    });
    // WAL checkpoints off the event loop (a file database only).
    const checkpointer = startWalCheckpointer(sqlite, warn);
    const handle: DatabaseHandle = {
      db,
      dialect: 'sqlite',
      sqlite,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      poolStats: () => undefined,
      walCheckpoints: () => checkpointer?.stats(),
      ...(checkpointer ? { walCheckpointer: checkpointer } : {}),
      sqliteWriterGate: writerGate,
      // The thread closes its connection first; the main one, closing last, then checkpoints as before.
      close: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
    };
    return handle;
  }
  const int8: number = pg.types.builtins.INT8;
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
      // int8 (epoch ms, counts) fits a JS number; everything else as pg parses it.
      oid === int8 ? Number : (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
  };
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    types,
    options: `-c search_path=${config.schema}`,
    // A database that does not answer fails the request (503, plugins/errors.ts) instead of queueing it forever.
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...log });
  const handle: DatabaseHandle = {
    db,
    dialect: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }),
    walCheckpoints: () => undefined,
    close: () => db.destroy(),
  };
  // A client whose server went away (PostgreSQL stopped or restarted: 57P01) emits 'error': an idle one on
  // the pool, a checked-out one (between two queries of a transaction) on itself. Unhandled, either event
  // ends the process. The query in flight still fails (503, plugins/errors.ts); the pool drops the broken
  // client and opens a new one on the next query, so the server recovers by itself once the database is back.
  const lost = (error: Error) => warn({ err: error }, 'database connection lost');
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return handle;
}

/** Creates the configured PostgreSQL schema when it is not `public` (tests run each in a fresh one). */
export async function ensureSchema(handle: DatabaseHandle, schema: string): Promise<void> {
  if (handle.dialect === 'postgres' && schema !== 'public') {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(handle.db);
  }
}
