import { describe, expect, it } from 'vitest';
import { calendarDateField, instantField, isRealDate, parseInstant, yearQueryField } from './dates';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? 'ok' : result.error!.issues[0]!.message;

describe('calendar dates', () => {
  it('knows which days exist, leap years included', () => {
    expect(isRealDate('2024-02-29')).toBe(true);
    expect(isRealDate('2000-02-29')).toBe(true);
    expect(isRealDate('2100-02-29')).toBe(false);
    expect(isRealDate('2026-02-29')).toBe(false);
    expect(isRealDate('2026-02-30')).toBe(false);
    expect(isRealDate('2026-04-31')).toBe(false);
    expect(isRealDate('2026-13-01')).toBe(false);
    expect(isRealDate('2026-00-10')).toBe(false);
    expect(isRealDate('0000-01-01')).toBe(true);
    expect(isRealDate('+010000-01-01')).toBe(false);
  });

  it.each([
    ['2026-11-28', 'ok'],
    ['2000-01-01', 'ok'],
    ['2100-12-31', 'ok'],
    [' 2026-11-28 ', 'validation.invalidDate'],
    ['1999-12-31', 'validation.dateRange'],
    ['2101-01-01', 'validation.dateRange'],
    ['9999-12-31', 'validation.dateRange'],
    ['0000-01-01', 'validation.dateRange'],
    ['0001-01-01', 'validation.dateRange'],
    ['+010000-01-01', 'validation.invalidDate'],
    ['2026-02-30', 'validation.invalidDate'],
    ['2026-13-01', 'validation.invalidDate'],
    ['2026-1-1', 'validation.invalidDate'],
    ['garbage', 'validation.invalidDate'],
    ['', 'validation.invalidDate'],
  ])('%j answers %s', (value, expected) => {
    expect(messageOf(calendarDateField().safeParse(value))).toBe(expected);
  });

  it('says invalidDate for what is not text', () => {
    expect(messageOf(calendarDateField().safeParse(20261128))).toBe('validation.invalidDate');
  });
});

describe('instants', () => {
  it('reads epoch ms, dates and zoned date-times alike', () => {
    const ms = Date.UTC(2026, 10, 28, 12, 30);
    expect(parseInstant(ms)).toBe(ms);
    expect(parseInstant(String(ms))).toBe(ms);
    expect(parseInstant('2026-11-28T12:30:00.000Z')).toBe(ms);
    expect(parseInstant('2026-11-28T15:30+03:00')).toBe(ms);
    expect(parseInstant('2026-11-28T15:30:00+0300')).toBe(ms);
    expect(parseInstant('2026-11-28')).toBe(Date.UTC(2026, 10, 28));
  });

  it.each([
    ['2026-11-28T12:00:00Z', 'ok'],
    ['2100-12-31T23:59:59.999Z', 'ok'],
    ['2101-01-01T00:00:00Z', 'validation.dateRange'],
    ['2101-01-01', 'validation.dateRange'],
    ['1999-12-31T23:59:59Z', 'validation.dateRange'],
    ['9999-12-31T00:00:00Z', 'validation.dateRange'],
    ['0', 'validation.dateRange'],
    ['253402214400000', 'validation.dateRange'],
    ['2026-02-30T00:00:00Z', 'validation.invalidDate'],
    ['2026-11-28T24:00:00Z', 'validation.invalidDate'],
    ['2026-11-28T12:00:00', 'validation.invalidDate'],
    ['+010000-01-01T00:00:00Z', 'validation.invalidDate'],
    ['99999999999999999', 'validation.invalidDate'],
    ['012', 'validation.invalidDate'],
    ['garbage', 'validation.invalidDate'],
  ])('%j answers %s', (value, expected) => {
    expect(messageOf(instantField().safeParse(value))).toBe(expected);
  });
});

describe('years in a query string', () => {
  it.each([
    ['2026', 'ok'],
    ['1999', 'validation.outOfRange'],
    ['2101', 'validation.outOfRange'],
    ['9999', 'validation.outOfRange'],
    ['0', 'validation.outOfRange'],
    ['abc', 'validation.outOfRange'],
  ])('%j answers %s', (value, expected) => {
    expect(messageOf(yearQueryField().safeParse(value))).toBe(expected);
  });
});
