import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableProps } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { sortParamOf, type ActiveFilter } from './list-query';

export interface ListState<F> {
  page: number;
  pageSize: number;
  sort: string | undefined;
  q: string;
  active: ActiveFilter;
  filters: F;
}

/**
 * Paging, sorting, search and filters of a management table. Changing the search or a filter goes back
 * to the first page; the table's own change event sets page, size and sort.
 */
export function useListState<F extends object>(defaultSort: string | undefined, initialFilters: F) {
  const { t } = useTranslation();
  const [state, setState] = useState<ListState<F>>({
    page: 1,
    pageSize: 20,
    sort: defaultSort,
    q: '',
    active: 'all',
    filters: initialFilters,
  });
  /** Table `onChange`: the pagination and the (single) sorter. */
  const onTableChange = <T>(
    pagination: { current?: number; pageSize?: number },
    sorter: SorterResult<T> | SorterResult<T>[],
  ) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const column = one?.order ? String(one.columnKey ?? one.field ?? '') || undefined : undefined;
    setState((s) => {
      const sort = column ? sortParamOf(column, one?.order === 'descend') : defaultSort;
      const pageSize = pagination.pageSize ?? s.pageSize;
      const sizeChanged = pageSize !== s.pageSize;
      return { ...s, sort, pageSize, page: sizeChanged ? 1 : (pagination.current ?? s.page) };
    });
  };
  return {
    state,
    setSearch: (q: string) => setState((s) => ({ ...s, q: q.trim(), page: 1 })),
    setActive: (active: ActiveFilter) => setState((s) => ({ ...s, active, page: 1 })),
    setFilter: <K extends keyof F>(key: K, value: F[K]) =>
      setState((s) => ({ ...s, filters: { ...s.filters, [key]: value }, page: 1 })),
    /** The server-paged table's `pagination` and `onChange`, the same on every management page. */
    tableProps: <T>(total: number | undefined): Pick<TableProps<T>, 'pagination' | 'onChange'> => ({
      pagination: {
        current: state.page,
        pageSize: state.pageSize,
        total: total ?? 0,
        showSizeChanger: true,
        showTotal: (all) => t('management.total', { total: all }),
      },
      onChange: (pagination, _filters, sorter) => onTableChange(pagination, sorter),
    }),
  };
}
