/**
 * Where unknown values sort: last, whichever the direction. `negated` says the comparator's result is
 * negated afterwards for a descending sort (antd does so for a column's sorter), so the null order must be
 * negated in advance to stay last. Undefined when neither value is null: the caller compares them.
 */
export function nullOrder(x: unknown, y: unknown, negated: boolean): number | undefined {
  if (x !== null && y !== null) return undefined;
  if (x === y) return 0;
  const last = x === null ? 1 : -1;
  return negated ? -last : last;
}
