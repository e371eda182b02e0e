/** A query-string value; undefined, null and '' are left out. */
export type QueryValue = string | number | boolean | null | undefined;

/** `path?key=value…` with the empty values dropped (absent filter = any). */
export function withQuery(path: string, params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The `sort` parameter of a list call: `column`, or `-column` for descending. */
export function sortParamOf(column: string | undefined, descending: boolean): string | undefined {
  if (!column) return undefined;
  return descending ? `-${column}` : column;
}

/** The column and direction of a `sort` parameter, for the table's `sortOrder`. */
export function parseSort(sort: string | undefined): { column: string | undefined; descending: boolean } {
  if (!sort) return { column: undefined, descending: false };
  return sort.startsWith('-')
    ? { column: sort.slice(1), descending: true }
    : { column: sort, descending: false };
}

/** Table sort order of a column under the current `sort` parameter. */
export function sortOrderOf(sort: string | undefined, column: string): 'ascend' | 'descend' | null {
  const parsed = parseSort(sort);
  if (parsed.column !== column) return null;
  return parsed.descending ? 'descend' : 'ascend';
}

/** The active filter of a list: all, only active or only passive records. */
export type ActiveFilter = 'all' | 'active' | 'passive';
/** `is_active` query value of an active filter (absent = all). */
export const isActiveParam = (filter: ActiveFilter): 'true' | 'false' | undefined =>
  filter === 'all' ? undefined : filter === 'active' ? 'true' : 'false';
