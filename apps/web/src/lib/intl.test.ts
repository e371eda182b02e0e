import { afterEach, describe, expect, it, vi } from 'vitest';

/** lib/intl with a fresh support cache, on a runtime that has (or lacks) Macedonian data. */
async function intlOn(hasMacedonian: boolean) {
  vi.resetModules();
  const real = Intl.DateTimeFormat.supportedLocalesOf.bind(Intl.DateTimeFormat);
  vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf').mockImplementation((tags, options) =>
    !hasMacedonian && String(tags).startsWith('mk') ? [] : real(tags, options),
  );
  return import('./intl');
}

describe('intl tags and month names', () => {
  afterEach(() => vi.restoreAllMocks());

  it('formats Macedonian with its numeric twin and its own month names where the runtime lacks mk (Chromium)', async () => {
    const { intlTag, monthName } = await intlOn(false);
    expect(intlTag('mk_MK')).toBe('de-DE');
    expect(new Intl.NumberFormat(intlTag('mk_MK')).format(7448426.3)).toBe('7.448.426,3');
    expect(monthName(10, 'mk_MK', 'long')).toBe('ноември');
    expect(monthName(5, 'mk_MK', 'short')).toBe('јун');
    // The other languages keep their own tags and names.
    expect(intlTag('tr_TR')).toBe('tr-TR');
    expect(monthName(1, 'tr_TR', 'long')).toBe('Şubat');
    expect(monthName(2, 'de_DE', 'long')).toBe('März');
  });

  it('uses Macedonian itself where the runtime has it (Node with full ICU)', async () => {
    const { intlTag, monthName } = await intlOn(true);
    expect(intlTag('mk_MK')).toBe('mk-MK');
    expect(monthName(10, 'mk_MK', 'long')).toBe('ноември');
  });
});
