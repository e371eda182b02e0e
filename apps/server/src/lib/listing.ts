import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { searchFold } from '../db/database';

/** A LIKE pattern that finds `q` anywhere, with the wildcard characters of `q` taken literally. */
export function containsPattern(q: string): string {
  return `%${searchFold(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "any of these columns contains q" (both dialects). */
export function searchAny(columns: readonly string[], q: string): Expression<SqlBool> {
  const pattern = containsPattern(q);
  const parts: RawBuilder<SqlBool>[] = columns.map(
    (column) => sql<SqlBool>`search_fold(${sql.ref(column)}) like ${pattern} escape '\\'`,
  );
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** Limit and offset of a page (1-based). */
export function pageOf(query: { page: number; pageSize: number }) {
  return { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
}

/** Epoch milliseconds → UTC ISO 8601 (ARCHITECTURE.md rule 6). */
export const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** A flag column (0/1) as a boolean. */
export const bool = (v: number | boolean) => v === 1 || v === true;
