import { describe, expect, it } from 'vitest';
import { KeptAnalyses } from './kept-analyses';

/** A promise its test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('KeptAnalyses.once', () => {
  it('shares an analysis being made with every caller of the same key, and only while it is made', async () => {
    const kept = new KeptAnalyses<unknown, string>();
    let made = 0;
    const first = deferred<string>();
    const make = () => {
      made++;
      return first.promise;
    };
    const a = kept.once('1|2026-11-30|', make);
    const b = kept.once('1|2026-11-30|', make);
    const other = kept.once('2|2026-11-30|', () => Promise.resolve('plant 2'));
    expect(made).toBe(1);
    first.resolve('plant 1');
    expect(await a).toBe('plant 1');
    expect(await b).toBe('plant 1');
    expect(await other).toBe('plant 2');
    // Made: the next call makes its own (what is kept under a stamp is the caller's business).
    expect(await kept.once('1|2026-11-30|', () => Promise.resolve('again'))).toBe('again');
  });

  it('a failed analysis fails its callers and is not kept', async () => {
    const kept = new KeptAnalyses<unknown, string>();
    const failing = deferred<string>();
    const a = kept.once('k', () => failing.promise);
    const b = kept.once('k', () => Promise.resolve('not asked'));
    failing.reject(new Error('database gone'));
    await expect(a).rejects.toThrow('database gone');
    await expect(b).rejects.toThrow('database gone');
    expect(await kept.once('k', () => Promise.resolve('made anew'))).toBe('made anew');
  });
});
