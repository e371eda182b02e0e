import { describe, expect, it } from 'vitest';
import { differsFromBrowser, formatInZone, formatPlantTime, plantToday, zoneLabel } from './plant-time';

// 28 November 2026 13:33 UTC: 14:33 in Skopje (UTC+1 in winter), 16:33 in Istanbul (UTC+3).
const AT = Date.UTC(2026, 10, 28, 13, 33);
// 1 July 2026 12:00 UTC: Skopje is on summer time (UTC+2), Istanbul stays UTC+3.
const SUMMER = Date.UTC(2026, 6, 1, 12, 0);

describe('plant time', () => {
  it("formats an instant on the plant's clock whatever the browser's zone", () => {
    expect(formatInZone(AT, 'Europe/Skopje', 'en_US', 'time')).toMatch(/^2:33\sPM$/);
    expect(formatInZone(AT, 'Europe/Istanbul', 'tr_TR', 'time')).toBe('16:33');
    expect(formatInZone(new Date(AT).toISOString(), 'Europe/Skopje', 'de_DE', 'dateTime')).toBe(
      '28.11.26, 14:33',
    );
  });

  it("names the zone only when the browser's clock reads another time", () => {
    expect(formatPlantTime(AT, 'Europe/Skopje', 'tr_TR', 'time', 'America/New_York')).toBe(
      '14:33 (Europe/Skopje)',
    );
    expect(formatPlantTime(AT, 'Europe/Skopje', 'tr_TR', 'time', 'Europe/Skopje')).toBe('14:33');
    // Another zone on the same clock needs no label.
    expect(formatPlantTime(AT, 'Europe/Skopje', 'tr_TR', 'time', 'Europe/Belgrade')).toBe('14:33');
    expect(formatPlantTime(AT, 'Europe/Istanbul', 'tr_TR', 'time', 'Europe/Skopje')).toBe(
      '16:33 (Europe/Istanbul)',
    );
  });

  it('follows summer time: Skopje and Istanbul are two hours apart in winter, one in summer', () => {
    expect(formatPlantTime(SUMMER, 'Europe/Skopje', 'tr_TR', 'time', 'UTC')).toBe('14:00 (Europe/Skopje)');
    expect(differsFromBrowser(SUMMER, 'Europe/Istanbul', 'Europe/Moscow')).toBe(false);
    expect(differsFromBrowser(SUMMER, 'Europe/Skopje', 'Europe/Istanbul')).toBe(true);
  });

  it('gives an empty text for a missing or unreadable time', () => {
    expect(formatPlantTime(null, 'Europe/Skopje', 'tr_TR')).toBe('');
    expect(formatPlantTime(undefined, 'Europe/Skopje', 'tr_TR')).toBe('');
    expect(formatPlantTime('not a time', 'Europe/Skopje', 'tr_TR')).toBe('');
  });

  it("labels a chart's axis when any of its instants reads otherwise on the browser's clock", () => {
    expect(zoneLabel('Europe/Skopje', [AT, AT + 3_600_000], 'Europe/Istanbul')).toBe('Europe/Skopje');
    expect(zoneLabel('Europe/Skopje', [AT], 'Europe/Skopje')).toBeNull();
    expect(zoneLabel('Europe/Skopje', [], 'Asia/Tokyo')).toBeNull();
  });

  it("answers the plant's date, which turns at the plant's midnight, not the browser's", () => {
    // 21:30 UTC on 28 November: already the 29th in Istanbul (00:30), still the 28th in Honolulu and Skopje.
    const afterIstanbulMidnight = Date.UTC(2026, 10, 28, 21, 30);
    expect(plantToday('Europe/Istanbul', afterIstanbulMidnight)).toBe('2026-11-29');
    expect(plantToday('Pacific/Honolulu', afterIstanbulMidnight)).toBe('2026-11-28');
    expect(plantToday('Europe/Skopje', afterIstanbulMidnight)).toBe('2026-11-28');
    // New Year's Eve: the plant's year turns first.
    expect(plantToday('Europe/Istanbul', Date.UTC(2026, 11, 31, 22, 0))).toBe('2027-01-01');
  });
});
