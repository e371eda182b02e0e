import { PAGE_SIZE_MAX } from '@solar/shared';
import { api } from './api-client';
import { withQuery, type QueryValue } from './list-query';

/**
 * An option list for the parent selects of the management forms (a field's company, a plant's field…):
 * the first PAGE_SIZE_MAX records by name, narrowed by the given filters. Each feature owns the query
 * (and its key) of its own records; this is the fetch they share.
 */
export async function fetchOptionList<T>(
  path: string,
  schema: { parse: (v: unknown) => { items: T[] } },
  filters: Record<string, QueryValue>,
): Promise<T[]> {
  const answer = await api.get<unknown>(
    withQuery(path, { ...filters, page: 1, pageSize: PAGE_SIZE_MAX, sort: 'name' }),
  );
  return schema.parse(answer).items;
}

/** `{ value: id, label: name }` options of records. */
export const toOptions = (records: readonly { id: number; name: string }[] | undefined) =>
  (records ?? []).map((r) => ({ value: r.id, label: r.name }));
