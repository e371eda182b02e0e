import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore';

describe('Semaphore', () => {
  it('runs at most `limit` at once, the rest in arrival order, and frees a place on failure', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const job = (n: number, fail = false) =>
      gate.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        order.push(n);
        if (fail) throw new Error(`job ${n} failed`);
        return n;
      });
    const results = await Promise.allSettled([job(1), job(2, true), job(3), job(4), job(5)]);
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(gate.queued).toBe(0);
    // Every place was given back: two new jobs start at once.
    let started = 0;
    const a = gate.run(() => Promise.resolve(void started++));
    const b = gate.run(() => Promise.resolve(void started++));
    await Promise.all([a, b]);
    expect(started).toBe(2);
  });
});
