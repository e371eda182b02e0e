import { describe, expect, it } from 'vitest';
import { yearOnYearDegradation, type NormalizedDay } from './degradation';
import { InputMemo } from './input-memo';

/** Two years of daily normalised energy losing 0.5 %/yr, with a weekly ripple. */
function days(from = 0): NormalizedDay[] {
  const out: NormalizedDay[] = [];
  for (let i = from; i < 800; i++) {
    const date = new Date(Date.UTC(2023, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    out.push({ date, normalizedEnergy: (1 - 0.005 * (i / 365)) * (1 + 0.01 * Math.sin(i)), excluded: false });
  }
  return out;
}

describe('InputMemo', () => {
  it('computes once per distinct input and answers a repeated one with the same answer', () => {
    let computed = 0;
    const memo = new InputMemo((d: NormalizedDay[]) => {
      computed++;
      return yearOnYearDegradation(d, { seed: 1 });
    });
    const first = memo.get(days());
    expect(memo.get(days())).toBe(first);
    expect(computed).toBe(1);
    // The same answer as computing it afresh (the estimate is seeded, so pure).
    expect(first).toEqual(yearOnYearDegradation(days(), { seed: 1 }));
  });

  it('computes again when any part of the input changes: a value, an excluded day, a nested option', () => {
    let computed = 0;
    const memo = new InputMemo((input: { d: NormalizedDay[]; options: { period?: { from: string } } }) => {
      computed++;
      return input.d.length;
    });
    const base = days();
    memo.get({ d: base, options: {} });
    const changedValue = base.map((x, i) => (i === 400 ? { ...x, normalizedEnergy: 0.9 } : x));
    memo.get({ d: changedValue, options: {} });
    const excluded = base.map((x, i) => (i === 400 ? { ...x, excluded: true } : x));
    memo.get({ d: excluded, options: {} });
    memo.get({ d: base, options: { period: { from: '2024-01-01' } } });
    memo.get({ d: base, options: { period: { from: '2024-01-02' } } });
    expect(computed).toBe(5);
    memo.get({ d: base, options: {} });
    expect(computed).toBe(5);
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    let computed = 0;
    const memo = new InputMemo((n: number) => ++computed + n * 0, 2);
    memo.get(1);
    memo.get(2);
    memo.get(1); // 1 is now the most recently used
    memo.get(3); // drops 2
    expect(memo.size).toBe(2);
    memo.get(1);
    expect(computed).toBe(3);
    memo.get(2);
    expect(computed).toBe(4);
  });
});
