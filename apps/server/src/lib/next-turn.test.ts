import { describe, expect, it } from 'vitest';
import { turnsEvery } from './next-turn';

/** Holds the event loop for `ms`, as a costly estimate does. */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('turnsEvery', () => {
  it('lets the waiting I/O and timers go first only after the budget is spent', async () => {
    const turn = turnsEvery(20);
    const order: string[] = [];
    setImmediate(() => order.push('waiting'));
    busy(2);
    await turn();
    order.push('cheap step');
    busy(25);
    await turn();
    order.push('after a costly step');
    expect(order).toEqual(['cheap step', 'waiting', 'after a costly step']);
  });

  it('counts the budget again from each wait', async () => {
    const turn = turnsEvery(20);
    busy(25);
    await turn();
    const order: string[] = [];
    setImmediate(() => order.push('waiting'));
    busy(2);
    await turn();
    order.push('cheap step');
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['cheap step', 'waiting']);
  });
});
