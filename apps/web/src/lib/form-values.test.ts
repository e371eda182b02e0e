import { describe, expect, it } from 'vitest';
import { formatCoordinates } from './format';
import { orNull } from './form-values';
import { PREFERRED_TIME_ZONES, timeZoneNames } from './time-zones';

describe('form values', () => {
  it('sends empty inputs as null', () => {
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
