import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { fromPlantClock, toPlantClock } from './plant-clock-picker';

describe("a picker on the plant's clock", () => {
  it("shows an instant as the plant's clock reads it", () => {
    expect(toPlantClock('2026-11-29T04:00:00.000Z', 'Europe/Istanbul')?.format('YYYY-MM-DD HH:mm:ss')).toBe(
      '2026-11-29 07:00:00',
    );
    expect(toPlantClock('2026-11-29T04:00:00.000Z', 'America/New_York')?.format('YYYY-MM-DD HH:mm')).toBe(
      '2026-11-28 23:00',
    );
    expect(toPlantClock(null, 'Europe/Istanbul')).toBeNull();
  });

  it("reads what is picked as a time on the plant's clock, seconds included", () => {
    const picked = dayjs('2026-11-29T07:00:15');
    expect(fromPlantClock(picked, 'Europe/Istanbul')).toBe('2026-11-29T04:00:15.000Z');
    expect(fromPlantClock(picked, 'Europe/Skopje')).toBe('2026-11-29T06:00:15.000Z');
    // Round trip across a DST date of the plant (Skopje's fall-back night).
    const at = '2026-10-25T03:30:00.000Z';
    expect(fromPlantClock(toPlantClock(at, 'Europe/Skopje')!, 'Europe/Skopje')).toBe(at);
  });
});
