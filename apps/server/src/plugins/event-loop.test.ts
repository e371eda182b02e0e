import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

const TOKEN = 'metrics-token-for-the-event-loop-test-0123';

/** The value of one series in an exposition text (labels exactly as written), or undefined. */
function valueOf(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(series + ' ')) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

/** Keeps the event loop busy for `ms`, as a runaway request handler would. */
function blockFor(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // Busy on purpose: nothing else may run meanwhile.
  }
}

/**
 * A task that holds the event loop stops every other request (docs/security.md "Dates and ranges"): the
 * server says so in its log and in /metrics, so that an operator sees it before users do.
 */
describe(`event-loop delay (${dialectUnderTest})`, () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
  });
  afterAll(() => t.close());

  it('logs a warning and shows the delay in /metrics when one task blocks the loop for over a second', async () => {
    const warn = vi.spyOn(t.app.log, 'warn');
    // A scrape starts a new window: what follows is measured on its own. Only the block is asserted on: a
    // loaded test machine may stall the loop by itself now and then, which the figures rightly count too.
    const before = valueOf(await scrape(), 'solar_event_loop_blocks_total')!;
    expect(before).toBeGreaterThanOrEqual(0);
    // Node's delay histogram drops its first interval after a reset (the scrape's): block a little later,
    // as a real runaway request would, so that the percentiles see it too (the maximum sees it anyway).
    await sleep(50);
    blockFor(1500);
    await sleep(300);

    const blocked = warn.mock.calls
      .filter(([, message]) => message === 'event loop blocked')
      .map(([details]) => (details as { blockedMs: number }).blockedMs);
    expect(blocked.filter((ms) => ms >= 1400 && ms < 3000)).toHaveLength(1);

    const text = await scrape();
    expect(valueOf(text, 'solar_event_loop_delay_max_seconds')).toBeGreaterThanOrEqual(1.4);
    expect(valueOf(text, 'solar_event_loop_delay_p99_seconds')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'solar_event_loop_blocks_total')).toBe(before + blocked.length);
    expect(text).toMatch(/# TYPE solar_event_loop_delay_p99_seconds gauge/);
    expect(text).toMatch(/# TYPE solar_event_loop_blocks_total counter/);
    warn.mockRestore();
  });
});
