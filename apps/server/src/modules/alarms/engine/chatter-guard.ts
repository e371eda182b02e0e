/**
 * Chattering alarms (ISA-18.2 TR5, EEMUA 191): an alarm that returns to normal and back again and again in
 * a short time. A device whose status or event register flips every poll (a loose contact, a noisy
 * register) would otherwise raise and clear a new alarm every second: thousands of alarm rows an hour
 * that bury the real ones and, on SQLite, saturated the server in the load suite (5,430 raises and
 * 10,249 clears in 60 s). Once a condition has been raised CHATTER_RAISES times within CHATTER_WINDOW_MS,
 * its clears are held until it has stayed normal for CHATTER_HOLD_MS: the one alarm stays active while
 * the device chatters. A condition that does not chatter clears at once, as before. Times are the
 * points' own timestamps, so a burst of buffered history is judged as it happened.
 */
export const CHATTER_RAISES = 3;
export const CHATTER_WINDOW_MS = 60_000;
export const CHATTER_HOLD_MS = 60_000;

export class ChatterGuard {
  /** Recent raise times per condition key, oldest first (at most CHATTER_RAISES). */
  private readonly raises = new Map<string, number[]>();
  /** Since when a chattering condition has been normal, while its clear is held. */
  private readonly normalSince = new Map<string, number>();

  /** The condition was raised anew (it was not active) at `at`: one return to alarm. */
  raised(key: string, at: number): void {
    this.normalSince.delete(key);
    this.returned(key, at);
  }

  /**
   * The condition is present at `at` while its alarm is active. After a held clear this is another return
   * to alarm (it keeps the condition chattering) and the hold starts over from the next normal point.
   */
  present(key: string, at: number): void {
    if (!this.normalSince.delete(key)) return;
    this.returned(key, at);
  }

  private returned(key: string, at: number) {
    const times = (this.raises.get(key) ?? []).filter((t) => at - t < CHATTER_WINDOW_MS);
    times.push(at);
    if (times.length > CHATTER_RAISES) times.shift();
    this.raises.set(key, times);
  }

  /** The condition is normal at `at` while its alarm is active: whether to clear it now. */
  mayClear(key: string, at: number): boolean {
    const times = this.raises.get(key);
    const chattering =
      times !== undefined && times.length >= CHATTER_RAISES && at - times[0]! < CHATTER_WINDOW_MS;
    const since = this.normalSince.get(key);
    if (!chattering && since === undefined) {
      this.forgetIfQuiet(key, at);
      return true;
    }
    if (since === undefined) {
      this.normalSince.set(key, at);
      return false;
    }
    if (at - since < CHATTER_HOLD_MS) return false;
    this.normalSince.delete(key);
    this.raises.delete(key);
    return true;
  }

  /** Whether a clear of `key` is being held (for tests and health). */
  holding(key: string): boolean {
    return this.normalSince.has(key);
  }

  /**
   * Drops a key's raise times once none is within the window. A key cleared soon after its one raise keeps
   * its entry until its next clear: memory is bounded by the device codes in use (17 per device), not time.
   */
  private forgetIfQuiet(key: string, at: number) {
    const times = this.raises.get(key);
    if (times && at - times[times.length - 1]! >= CHATTER_WINDOW_MS) this.raises.delete(key);
  }
}
