import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FormInstance } from 'antd/es/form';
import type { TableProps } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { hasPermission, type Method, type Page } from '@solar/shared';
import type { ZodType } from 'zod';
import { ApiError, fieldErrorsOf, messageKeyOf } from './problem';
import { notify } from './notify';
import { useSession } from './session-store';
import type { ZodFormRule } from './form-rules';

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

/** What the signed-in user may do on a page (admin holds every pair). */
export function useCan(page: Page): Record<Method, boolean> {
  const permissions = useSession((s) => s.user?.permissions ?? []);
  return {
    view: hasPermission(permissions, page, 'view'),
    create: hasPermission(permissions, page, 'create'),
    update: hasPermission(permissions, page, 'update'),
    delete: hasPermission(permissions, page, 'delete'),
  };
}

/** True for the administrator: the only user outside every company (NOTES.md). */
export function useIsAdmin(): boolean {
  return useSession((s) => s.user !== null && s.user.company_id === null);
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * An Ant Design rule from a shared zod field schema. An empty input is validated as absent, so an
 * optional field may stay empty and a required one says `validation.required`.
 */
export function schemaRule(schema: ZodType, t: (key: string) => string, required = false): ZodFormRule {
  return {
    required,
    validator: async (_rule, value) => {
      const result = await schema.safeParseAsync(isEmpty(value) ? undefined : value);
      if (!result.success) throw new Error(t(result.error.issues[0]?.message ?? 'validation.invalidValue'));
    },
  };
}

/** Puts the field messages of a 400 or 409 problem on the form; true when there were any. */
export function applyFieldErrors<Values>(
  form: FormInstance<Values>,
  error: unknown,
  t: (key: string) => string,
): boolean {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return false;
  const fields = fieldErrorsOf(error.problem, t);
  if (fields.length > 0)
    form.setFields(fields as unknown as Parameters<FormInstance<Values>['setFields']>[0]);
  return fields.length > 0;
}

/** The translated reason a call failed (e.g. errors.hasChildren when children remain). */
export function errorMessageOf(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError) return t(messageKeyOf(error.problem));
  return t('common.failure');
}

/** Empty text → null: optional texts and numbers are sent as null when left empty. */
export function orNull<T>(value: T | '' | undefined | null): T | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  return value;
}

/** A delete call: toasts its result (DELETE has no generic toast) and refreshes the lists under `key`. */
export function useDeleteMutation(remove: (id: number) => Promise<unknown>, key: readonly unknown[]) {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: remove,
    onSuccess: () => {
      notify.success(t('common.success'));
      void client.invalidateQueries({ queryKey: key });
    },
    onError: (error) => notify.error(errorMessageOf(error, t)),
  });
}

/** A save call (POST x/{id}; the client toasts it) that refreshes the lists under `key`. */
export function useSaveMutation<B, R>(
  save: (input: { id: number; body: B }) => Promise<R>,
  key: readonly unknown[],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => void client.invalidateQueries({ queryKey: key }),
  });
}

/**
 * Open/closed state of a create/edit drawer and the record being edited (null = creating). `session`
 * changes on every opening: used as the form's key, each opening starts from the record's values.
 */
export function useEditor<T>() {
  const [state, setState] = useState<{
    open: boolean;
    record: T | null;
    error: string | null;
    session: number;
  }>({
    open: false,
    record: null,
    error: null,
    session: 0,
  });
  return {
    ...state,
    openCreate: () => setState((s) => ({ open: true, record: null, error: null, session: s.session + 1 })),
    openEdit: (record: T) => setState((s) => ({ open: true, record, error: null, session: s.session + 1 })),
    close: () => setState((s) => ({ ...s, open: false, error: null })),
    setError: (error: string | null) => setState((s) => ({ ...s, error })),
  };
}
