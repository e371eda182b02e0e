import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fieldList, type FieldList, type FieldListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { fieldKeys } from './query-keys';

/** GET fields: one page of fields (sites), searched, filtered and sorted by the server. */
export async function getFields(query: FieldListQuery): Promise<FieldList> {
  return fieldList.parse(await api.get<unknown>(withQuery('fields', query)));
}

/** The fields table's query; the previous page stays on screen while the next loads. */
export const fieldsQueryOptions = (query: FieldListQuery) =>
  queryOptions({
    queryKey: fieldKeys.list(query),
    queryFn: () => getFields(query),
    placeholderData: keepPreviousData,
  });

/** Hook of fieldsQueryOptions. */
export const useFields = (query: FieldListQuery) => useQuery(fieldsQueryOptions(query));
