import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct statements stay prepared (an `in (?, ?, …)` list of each length is a statement). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite handle Kysely's driver sees, with its prepared statements kept. Kysely's SqliteDriver calls
 * `prepare(sql)` for every query it runs, and SQLite parses and plans the text anew each time: under the
 * load suite that was about a tenth of the server's busy time (the dashboard's reads are long joins),
 * spent on the one event loop. A statement is reusable once it has run (`all`/`run` finish it), so
 * the same text gets the same statement back, least recently used ones dropped past `size`.
 *
 * A statement still iterating (Kysely's `stream()`; `busy`) cannot run twice at once: such a call gets a
 * statement of its own. Schema changes need nothing here: SQLite re-prepares a statement whose schema
 * changed when it next runs.
 */
export interface StatementCacheOptions {
  /** Kysely's `begin` becomes `begin immediate` (see prepare). */
  beginImmediate?: boolean;
}

export function withStatementCache(
  sqlite: SQLite.Database,
  size = STATEMENT_CACHE_SIZE,
  options: StatementCacheOptions = {},
): Omit<SqliteDatabase, 'prepare'> & { prepare(text: string): SQLite.Statement } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      // Kysely begins its transactions with a plain (deferred) `begin`. Beside a second writing connection
      // (the telemetry writer thread) a deferred transaction that has read and then writes fails at once
      // (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT once the other committed) instead of waiting for the lock;
      // `begin immediate` takes the write lock first (sqlite-writer-gate.ts has it wait its turn).
      const sql = options.beginImmediate && text === 'begin' ? 'begin immediate' : text;
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        // Map order is insertion order: re-inserting marks it the most recently used.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (cached) return statement;
      cache.set(sql, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}
