import { createHash } from 'node:crypto';

/**
 * A pure function's answers kept by a digest of their exact input.
 *
 * The engine's two costly estimates, the year-on-year bootstrap and the soiling Monte Carlo, are pure: their
 * random draws are seeded, so the same days and options give the same answer. The plant page asks for them
 * up to four times a view (the performance card and the KPIs of a day, a month and a year), and for a plant
 * of several years each asking cost about 1.5 s of CPU on the event loop (docs/performance.md, "Cost").
 * Keyed by the input itself, an answer can never be stale: a new day, an accepted flag or a refitted model
 * changes the input and so the key. Answers are shared between callers, who must not change them.
 */
export class InputMemo<I, R> {
  private readonly answers = new Map<string, R>();

  constructor(
    private readonly compute: (input: I) => R,
    /** Answers kept, least recently used dropped first: a few per plant whose pages are open. */
    private readonly capacity = 256,
  ) {}

  get(input: I): R {
    const key = createHash('sha256').update(JSON.stringify(input)).digest('base64');
    const kept = this.answers.get(key);
    if (kept !== undefined) {
      this.answers.delete(key);
      this.answers.set(key, kept);
      return kept;
    }
    const answer = this.compute(input);
    this.answers.set(key, answer);
    if (this.answers.size > this.capacity) this.answers.delete(this.answers.keys().next().value!);
    return answer;
  }

  get size(): number {
    return this.answers.size;
  }
}
