import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { ADMIN_ERRORS, type SystemInfo } from '@solar/shared';
import type { AppContext } from '../../context';
import { conflict } from '../../lib/http-errors';
import { migrations } from '../../db/migrations';
import { readAppliedMigrations } from './backup.repository';

/**
 * Backup and the migration state (admin panel). SQLite: an online copy made with SQLite's backup API
 * through a connection of its own, page by page between event-loop turns, so the console goes on answering
 * and writing while it runs (docs/operations-backup.md). PostgreSQL: pg_dump, which the panel shows.
 */
export class BackupService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'dialect' | 'config'>) {}

  async systemInfo(): Promise<SystemInfo> {
    const applied = await readAppliedMigrations(this.ctx.db);
    const known = Object.keys(migrations);
    const { database } = this.ctx.config;
    return {
      version: this.ctx.config.version,
      dialect: this.ctx.dialect,
      migrations: known.map((name) => ({
        name,
        applied_at: applied.has(name) ? new Date(applied.get(name)!).toISOString() : null,
      })),
      pending: known.filter((name) => !applied.has(name)),
      backup:
        database.dialect === 'sqlite'
          ? { kind: 'sqlite_download', database_bytes: statSync(database.file).size }
          : { kind: 'pg_dump', command: pgDumpCommand(database.schema) },
    };
  }

  /**
   * Writes an online copy of the SQLite database to a new file in DATA_DIR and answers its path; the caller
   * sends it and removes it with `discard`. 409 on PostgreSQL, whose backup is pg_dump.
   */
  async sqliteBackup(): Promise<string> {
    const { database, dataDir } = this.ctx.config;
    if (database.dialect !== 'sqlite') throw conflict(ADMIN_ERRORS.backupPgDump);
    const file = path.join(dataDir, `backup-${Date.now()}-${randomBytes(4).toString('hex')}.db`);
    const source = new SQLite(database.file, { fileMustExist: true });
    try {
      await source.backup(file);
    } catch (error) {
      await this.discard(file);
      throw error;
    } finally {
      source.close();
    }
    return file;
  }

  async discard(file: string): Promise<void> {
    await rm(file, { force: true });
  }
}

/** The pg_dump command for the configured schema; the credentials stay in DATABASE_URL, never on screen. */
export function pgDumpCommand(schema: string): string {
  return `pg_dump --format=custom --no-owner --schema=${schema} --file=solar-$(date +%Y%m%d-%H%M).dump "$DATABASE_URL"`;
}
