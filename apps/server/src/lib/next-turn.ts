/**
 * Resolves on the event loop's next turn, after the timers and I/O that are waiting (setImmediate), not
 * merely after the current microtasks: an `await` of a SQLite query resolves at once (better-sqlite3 is
 * synchronous), so a loop of such queries over many plants holds the event loop until it ends unless it
 * waits for this between plants (docs/security.md, "Report and export builds").
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * For a loop of steps whose cost varies (an answer computed, or one already kept): `await turn()` waits for
 * the next turn only once the steps since the last wait have held the event loop for `budgetMs`. Under
 * load a turn lasts as long as the work queued before it, so waiting between cheap steps made a plant's
 * performance analysis, a few milliseconds of CPU when its estimates were kept, take 100–300 ms to answer.
 */
export function turnsEvery(budgetMs: number): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await nextTurn();
    since = performance.now();
  };
}
