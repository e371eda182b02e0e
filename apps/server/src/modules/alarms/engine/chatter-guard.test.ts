import { describe, expect, it } from 'vitest';
import { CHATTER_HOLD_MS, CHATTER_RAISES, CHATTER_WINDOW_MS, ChatterGuard } from './chatter-guard';

describe('chatter guard', () => {
  it('clears a condition that does not chatter at once', () => {
    const guard = new ChatterGuard();
    guard.raised('k', 0);
    expect(guard.mayClear('k', 1_000)).toBe(true);
    guard.raised('k', 30_000);
    expect(guard.mayClear('k', 31_000)).toBe(true);
  });

  it(`holds the clear after ${CHATTER_RAISES} raises within the window until normal for the hold`, () => {
    const guard = new ChatterGuard();
    for (let i = 0; i < CHATTER_RAISES - 1; i++) {
      guard.raised('k', i * 2_000);
      expect(guard.mayClear('k', i * 2_000 + 1_000)).toBe(true);
    }
    const third = (CHATTER_RAISES - 1) * 2_000;
    guard.raised('k', third);
    expect(guard.mayClear('k', third + 1_000)).toBe(false);
    expect(guard.holding('k')).toBe(true);
    // Present again: the hold starts over from the next normal point.
    guard.present('k', third + 5_000);
    expect(guard.mayClear('k', third + 10_000)).toBe(false);
    expect(guard.mayClear('k', third + 10_000 + CHATTER_HOLD_MS - 1)).toBe(false);
    expect(guard.mayClear('k', third + 10_000 + CHATTER_HOLD_MS)).toBe(true);
    expect(guard.holding('k')).toBe(false);
  });

  it('forgets raises older than the window, and keys apart', () => {
    const guard = new ChatterGuard();
    guard.raised('a', 0);
    guard.raised('a', 1_000);
    guard.raised('b', 2_000);
    guard.raised('a', CHATTER_WINDOW_MS + 500); // the first raise of a fell out of the window
    expect(guard.mayClear('a', CHATTER_WINDOW_MS + 600)).toBe(true);
    expect(guard.mayClear('b', 3_000)).toBe(true);
  });
});
