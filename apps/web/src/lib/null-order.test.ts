import { describe, expect, it } from 'vitest';
import { nullOrder } from './null-order';

describe('nullOrder', () => {
  const values = [3, null, 1, null, 2];
  const sorted = (descending: boolean) =>
    [...values].sort((a, b) => {
      // As antd does for a descending column: the whole comparator's result is negated.
      const c = nullOrder(a, b, descending) ?? a! - b!;
      return descending ? -c : c;
    });

  it('puts nulls last in either direction of a negated comparator', () => {
    expect(sorted(false)).toEqual([1, 2, 3, null, null]);
    expect(sorted(true)).toEqual([3, 2, 1, null, null]);
  });

  it('leaves two known values to the caller', () => {
    expect(nullOrder(1, 2, false)).toBeUndefined();
    expect(nullOrder(null, null, true)).toBe(0);
  });
});
