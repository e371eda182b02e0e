import { describe, expect, it } from 'vitest';
import type { AlarmRecord } from '@solar/shared';
import { nestUnderCauses } from './alarm-groups';
import { takesListedAlarms } from './api/alarm-events';

const alarm = (id: number, cause: number | null, consequences = 0) =>
  ({ id, cause_alarm_id: cause, consequence_count: consequences }) as AlarmRecord;

describe('alarm groups on a list', () => {
  it('puts a listed consequence under its listed cause and leaves one whose cause is not listed alone', () => {
    const rows = nestUnderCauses([alarm(3, 1), alarm(2, 9), alarm(1, null, 1)]);
    expect(rows.map((r) => [r.id, r.children?.map((c) => c.id)])).toEqual([
      [2, undefined],
      [1, [3]],
    ]);
  });

  it('reads the list again when a raised alarm names consequences the list does not hold under it', () => {
    const list = [alarm(5, null), alarm(6, 7)];
    expect(takesListedAlarms(list, alarm(7, null, 2))).toBe(true);
    expect(takesListedAlarms([...list, alarm(8, 7)], alarm(7, null, 2))).toBe(false);
    expect(takesListedAlarms(list, alarm(9, null))).toBe(false);
  });
});
