import { describe, expect, it } from 'vitest';
import { dayRange } from './day-range';

describe('dayRange', () => {
  it('cuts Europe/Istanbul days at 21:00 UTC all year (UTC+3 since 2016)', () => {
    expect(dayRange('2026-01-15', 'Europe/Istanbul')).toEqual({
      from: Date.parse('2026-01-14T21:00:00Z'),
      to: Date.parse('2026-01-15T21:00:00Z'),
    });
    expect(dayRange('2026-07-15', 'Europe/Istanbul').from).toBe(Date.parse('2026-07-14T21:00:00Z'));
  });

  it('gives Europe/Skopje a 23-hour day in spring and a 25-hour day in autumn', () => {
    const spring = dayRange('2026-03-29', 'Europe/Skopje');
    expect(spring.from).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(spring.to - spring.from).toBe(23 * 3_600_000);
    const autumn = dayRange('2026-10-25', 'Europe/Skopje');
    expect(autumn.from).toBe(Date.parse('2026-10-24T22:00:00Z'));
    expect(autumn.to - autumn.from).toBe(25 * 3_600_000);
  });
});
