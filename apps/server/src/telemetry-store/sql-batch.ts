import { CompiledQuery } from 'kysely';
import type { Dialect } from '../db/database';

/** Most bind parameters one statement may carry: SQLite's SQLITE_MAX_VARIABLE_NUMBER and PostgreSQL's wire limit. */
export const MAX_PARAMS: Record<Dialect, number> = { sqlite: 32_766, postgres: 65_535 };

/** Rows of `width` parameters each, cut into chunks that stay under the dialect's bind-parameter limit. */
export function chunks<T>(rows: readonly T[], width: number, dialect: Dialect): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS[dialect] / width));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * `(?, ?, ?), (?, ?, ?)…` (or `$1…` on PostgreSQL) for `count` rows of `width` columns, each placeholder
 * wrapped by `cast` when given (VALUES lists need types on PostgreSQL: `cast($1 as bigint)`).
 */
export function valuesList(
  dialect: Dialect,
  count: number,
  width: number,
  casts?: readonly string[],
): string {
  const rows: string[] = new Array<string>(count);
  let n = 0;
  for (let r = 0; r < count; r++) {
    const cells: string[] = new Array<string>(width);
    for (let c = 0; c < width; c++) {
      const p = dialect === 'postgres' ? `$${++n}` : '?';
      const cast = casts?.[c];
      cells[c] = cast ? `cast(${p} as ${cast})` : p;
    }
    rows[r] = `(${cells.join(',')})`;
  }
  return rows.join(',');
}

/** A raw statement with its parameters, for Kysely's executeQuery. */
export function compiled(sqlText: string, parameters: readonly unknown[]): CompiledQuery {
  return CompiledQuery.raw(sqlText, [...parameters]);
}
