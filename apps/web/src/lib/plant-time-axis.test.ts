import { describe, expect, it } from 'vitest';
import { extentOf, plantClockAxis } from './plant-time-axis';

// 28 November 2026 13:00 UTC: 14:00 in Skopje, 16:00 in Istanbul.
const AT = Date.UTC(2026, 10, 28, 13, 0);
const HOUR = 3_600_000;

describe("a chart's time axis on the plant's clock", () => {
  it("labels ticks with the plant's clock and names the zone the reader's clock differs from", () => {
    const { xAxis, zone } = plantClockAxis(
      'Europe/Istanbul',
      'tr_TR',
      AT,
      AT + 6 * HOUR,
      'America/Sao_Paulo',
    );
    expect(zone).toBe('Europe/Istanbul');
    expect(xAxis).toMatchObject({ name: 'Europe/Istanbul', nameLocation: 'middle' });
    expect(xAxis.axisLabel.formatter(AT, 0, { time: { lowerTimeUnit: 'hour' } })).toBe('16:00');
    // A tick of a day's unit shows the plant's date.
    expect(xAxis.axisLabel.formatter(AT, 0, { time: { lowerTimeUnit: 'day' } })).toBe('28.11.2026');
  });

  it('shows the date with the time when the chart spans more than a day', () => {
    const { xAxis } = plantClockAxis('Europe/Skopje', 'tr_TR', AT, AT + 48 * HOUR);
    expect(xAxis.axisLabel.formatter(AT, 0, { time: { lowerTimeUnit: 'hour' } })).toBe('28.11.2026 14:00');
    // The cross pointer's label too.
    expect(xAxis.axisPointer.label.formatter({ value: AT })).toBe('28.11.2026 14:00:00');
  });

  it("needs no name when the plant runs on the reader's clock", () => {
    const { xAxis, zone } = plantClockAxis('Europe/Skopje', 'en_US', AT, AT + HOUR, 'Europe/Belgrade');
    expect(zone).toBeNull();
    expect(xAxis.name).toBeUndefined();
  });

  it('takes the extent of series from their first and last points', () => {
    expect(
      extentOf([
        {
          points: [
            [5, 1],
            [9, null],
          ],
        },
        { points: [] },
        {
          points: [
            [3, 2],
            [7, 1],
          ],
        },
      ]),
    ).toEqual([3, 9]);
  });
});
