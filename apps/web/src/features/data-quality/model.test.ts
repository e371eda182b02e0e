import { describe, expect, it } from 'vitest';
import { detailText, flagStatus, formatShare, periodText, reasonColor } from './model';

const IST = 'Europe/Istanbul';

describe('periodText', () => {
  const day = '2026-06-10';
  it("shows a period on the plant's clock, with the zone when the browser's clock differs", () => {
    // 07:35–08:00 UTC is 10:35–11:00 in Istanbul (UTC+3).
    const flag = { local_day: day, from: '2026-06-10T07:35:00.000Z', to: '2026-06-10T08:00:00.000Z' };
    expect(periodText(flag, IST, 'en_US', IST)).toBe('6/10/26 10:35 AM–11:00 AM');
    expect(periodText(flag, IST, 'de_DE', 'UTC')).toBe('10.06.26 10:35–11:00 (Europe/Istanbul)');
  });

  it('ends a period at 24:00 of its day rather than 00:00 of the next, and names both dates when it spans two', () => {
    const evening = { local_day: day, from: '2026-06-10T09:05:00.000Z', to: '2026-06-10T21:00:00.000Z' };
    expect(periodText(evening, IST, 'de_DE', IST)).toBe('10.06.26 12:05–24:00');
    const twoDays = { local_day: day, from: '2026-06-10T09:05:00.000Z', to: '2026-06-11T06:00:00.000Z' };
    expect(periodText(twoDays, IST, 'de_DE', IST)).toBe('10.06.26 12:05 – 11.06.26 09:00');
  });
});

describe('formatShare', () => {
  it('is a percentage with one decimal, and never 0 % for a share above zero', () => {
    expect(formatShare(0.0174, 'en_US')).toBe('1.7%');
    expect(formatShare(0.0174, 'tr_TR')).toBe('%1,7');
    expect(formatShare(0, 'en_US')).toBe('0%');
    expect(formatShare(0.00002, 'en_US')).toBe('< 0.1%');
  });
});

describe('flag status, colour and detail', () => {
  it('tells accepted, informational and open flags apart', () => {
    const open = { reason: 'counter_jump' as const, accepted_at: null, informational: false };
    expect(flagStatus(open)).toBe('open');
    expect(reasonColor(open)).toBe('red');
    expect(reasonColor({ ...open, reason: 'gap' })).toBe('orange');
    const accepted = { ...open, accepted_at: '2026-06-11T08:00:00.000Z' };
    expect(flagStatus(accepted)).toBe('accepted');
    expect(reasonColor(accepted)).toBe('default');
    const clipping = { reason: 'clipping' as const, accepted_at: null, informational: true };
    expect(flagStatus(clipping)).toBe('informational');
    expect(reasonColor(clipping)).toBe('blue');
  });

  it("writes a detail's figures in the reader's language", () => {
    expect(detailText({ missing: 5, jumpKwh: 83.237 }, 'de_DE')).toBe('missing 5 · jumpKwh 83,24');
    expect(detailText({}, 'en_US')).toBe('');
  });
});
