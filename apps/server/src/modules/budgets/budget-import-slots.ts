import { BUDGET_IMPORT_CONCURRENCY } from './budget-file-limits';

/**
 * How many budget files are being read at once, in all and per user (BUDGET_IMPORT_CONCURRENCY): each one
 * holds a reader thread, so a burst of uploads is refused (429) rather than queued in memory. Per app: the
 * budgets service owns one.
 */
export class ImportSlots {
  private total = 0;
  private readonly byUser = new Map<number, number>();

  constructor(private readonly limits: { total: number; perUser: number } = BUDGET_IMPORT_CONCURRENCY) {}

  /** A slot for the user, with the function that gives it back (once); undefined when none is free. */
  take(userId: number): (() => void) | undefined {
    const mine = this.byUser.get(userId) ?? 0;
    if (this.total >= this.limits.total || mine >= this.limits.perUser) return undefined;
    this.total++;
    this.byUser.set(userId, mine + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total--;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
    };
  }
}
