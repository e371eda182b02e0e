import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache';

describe('the SQLite statement cache under Kysely', () => {
  const open: SQLite.Database[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
  });
  const fresh = () => {
    const sqlite = new SQLite(':memory:');
    open.push(sqlite);
    sqlite.exec('create table t (id integer primary key, v text)');
    return sqlite;
  };

  it('prepares a text once and hands the same statement back', () => {
    const sqlite = fresh();
    const cached = withStatementCache(sqlite);
    const a = cached.prepare('select v from t where id = ?');
    const b = cached.prepare('select v from t where id = ?');
    expect(b).toBe(a);
    expect(cached.prepare('select id from t')).not.toBe(a);
  });

  it('drops the least recently used statement past its size', () => {
    const cached = withStatementCache(fresh(), 2);
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(one); // now "select 2" is the oldest
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).toBe(one);
    expect(cached.prepare('select 2')).not.toBe(two);
  });

  it('gives a statement still iterating a fresh one', () => {
    const sqlite = fresh();
    sqlite.exec("insert into t (v) values ('a'), ('b')");
    const cached = withStatementCache(sqlite);
    const text = 'select v from t order by id';
    const iterating = cached.prepare(text);
    const rows = iterating.iterate();
    rows.next();
    const other = cached.prepare(text);
    expect(other).not.toBe(iterating);
    expect(other.all([])).toEqual([{ v: 'a' }, { v: 'b' }]);
    rows.return?.();
  });

  it('answers Kysely queries, transactions and schema changes as the plain handle does', async () => {
    const sqlite = fresh();
    const db = new Kysely<{ t: { id: Generated<number>; v: string | null } }>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
    for (const v of ['x', 'y', 'z']) await db.insertInto('t').values({ v }).execute();
    const read = () => db.selectFrom('t').selectAll().orderBy('id').execute();
    expect((await read()).map((r) => r.v)).toEqual(['x', 'y', 'z']);
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('t').set({ v: 'changed' }).where('id', '=', 1).execute();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await read())[0]!.v).toBe('x');
    // A cached `select *` sees a column added after it was prepared.
    await sql`alter table t add column w integer default 7`.execute(db);
    expect(await db.selectFrom('t').selectAll().where('id', '=', 2).execute()).toEqual([
      { id: 2, v: 'y', w: 7 },
    ]);
    await db.destroy();
    expect(sqlite.open).toBe(false);
  });

  it('begins Kysely’s transactions immediate', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'solar-cache-'));
    const sqlite = new SQLite(path.join(dir, 'x.db'));
    const other = new SQLite(path.join(dir, 'x.db'));
    try {
      sqlite.pragma('journal_mode = WAL');
      sqlite.exec('create table t (id integer primary key, v text)');
      const db = new Kysely<{ t: { id: Generated<number>; v: string | null } }>({
        dialect: new SqliteDialect({
          database: withStatementCache(sqlite, undefined, { beginImmediate: true }),
        }),
      });
      let otherWrite: unknown;
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('t').selectAll().execute();
        // Immediate: the write lock is held before anything was written.
        try {
          other.exec('begin immediate');
        } catch (error) {
          otherWrite = (error as { code?: string }).code;
        }
      });
      expect(otherWrite).toBe('SQLITE_BUSY');
      await db.destroy();
    } finally {
      other.close();
      if (sqlite.open) sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
