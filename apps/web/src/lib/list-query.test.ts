import { describe, expect, it } from 'vitest';
import { isActiveParam, parseSort, sortOrderOf, sortParamOf, withQuery } from './list-query';

describe('management list helpers', () => {
  it('builds list paths without empty parameters', () => {
    expect(withQuery('companies', { page: 2, pageSize: 20, q: '', sort: 'name', is_active: undefined })).toBe(
      'companies?page=2&pageSize=20&sort=name',
    );
    expect(withQuery('fields', {})).toBe('fields');
    expect(withQuery('plants', { q: 'a&b', field_id: 3 })).toBe('plants?q=a%26b&field_id=3');
  });

  it('turns table sort state into the sort parameter and back', () => {
    expect(sortParamOf('name', false)).toBe('name');
    expect(sortParamOf('name', true)).toBe('-name');
    expect(sortParamOf(undefined, true)).toBeUndefined();
    expect(parseSort('-created_at')).toEqual({ column: 'created_at', descending: true });
    expect(sortOrderOf('-name', 'name')).toBe('descend');
    expect(sortOrderOf('name', 'name')).toBe('ascend');
    expect(sortOrderOf('name', 'city')).toBeNull();
  });

  it('maps the active filter', () => {
    expect(isActiveParam('all')).toBeUndefined();
    expect(isActiveParam('active')).toBe('true');
    expect(isActiveParam('passive')).toBe('false');
  });
});
