/**
 * Resolves on the event loop's next turn, after the timers and I/O that are waiting (setImmediate), not
 * merely after the current microtasks: an `await` of a SQLite query resolves at once (better-sqlite3 is
 * synchronous), so a loop of such queries over many plants holds the event loop until it ends unless it
 * waits for this between plants (docs/security.md, "Report and export builds").
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
