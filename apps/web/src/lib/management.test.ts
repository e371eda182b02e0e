import { describe, expect, it } from 'vitest';
import { isActiveParam, orNull, parseSort, sortOrderOf, sortParamOf, withQuery } from './management';
import { formatCoordinates } from './format';
import { PREFERRED_TIME_ZONES, timeZoneNames } from './time-zones';

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

  it('maps the active filter and empty inputs', () => {
    expect(isActiveParam('all')).toBeUndefined();
    expect(isActiveParam('active')).toBe('true');
    expect(isActiveParam('passive')).toBe('false');
    expect(orNull('')).toBeNull();
    expect(orNull('  ')).toBeNull();
    expect(orNull(0)).toBe(0);
    expect(orNull('x')).toBe('x');
  });

  it('formats coordinates and offers the preferred time zones first', () => {
    expect(formatCoordinates(41.0082, 28.9784)).toBe('41.00820, 28.97840');
    expect(formatCoordinates(null, 28)).toBe('');
    expect(timeZoneNames().slice(0, PREFERRED_TIME_ZONES.length)).toEqual([...PREFERRED_TIME_ZONES]);
  });
});
