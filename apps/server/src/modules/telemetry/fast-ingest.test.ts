import { describe, expect, it } from 'vitest';
import { telemetryIngestBody } from '@solar/shared';
import { parseIngestBody, parseIngestFast } from './fast-ingest';

/** Inputs the fast path must either take with zod's exact result or leave to zod. */
const cases: unknown[] = [
  { points: [{ signal_id: 1, ts: 1_790_000_000_000, value: 1.5 }] },
  { points: [{ signal_id: 1, ts: 0, value: null }], extra: true },
  { points: [{ signal_id: 2_147_483_647, ts: 8.64e15, value: -0, more: 'x' }] },
  { points: [{ signal_id: 1, ts: '2026-11-23T10:00:00Z', value: 1 }] },
  { points: [{ signal_id: 1, ts: '2026-11-23T10:00:00', value: 1 }] },
  { points: [{ signal_id: 0, ts: 1, value: 1 }] },
  { points: [{ signal_id: 1.5, ts: 1, value: 1 }] },
  { points: [{ signal_id: '1', ts: 1, value: 1 }] },
  { points: [{ signal_id: 2_147_483_648, ts: 1, value: 1 }] },
  { points: [{ signal_id: 1, ts: -1, value: 1 }] },
  { points: [{ signal_id: 1, ts: 1.5, value: 1 }] },
  { points: [{ signal_id: 1, ts: 8.64e15 + 1, value: 1 }] },
  { points: [{ signal_id: 1, ts: 1, value: '1' }] },
  { points: [{ signal_id: 1, ts: 1 }] },
  { points: [{ signal_id: 1, ts: 1, value: 1 }, null] },
  { points: [[1, 1, 1]] },
  { points: [] },
  { points: {} },
  { points: null },
  {},
  [],
  null,
  'points',
  { points: Array.from({ length: 10_000 }, (_, i) => ({ signal_id: 1 + (i % 7), ts: i, value: i / 3 })) },
  { points: Array.from({ length: 10_001 }, (_, i) => ({ signal_id: 1, ts: i, value: 1 })) },
];

describe('ingest body fast path', () => {
  it('answers exactly what the zod contract answers, or defers to it', () => {
    let fastTaken = 0;
    for (const input of cases) {
      const zod = telemetryIngestBody.safeParse(input);
      const fast = parseIngestFast(input);
      if (fast) {
        fastTaken++;
        expect(zod.success, JSON.stringify(input).slice(0, 100)).toBe(true);
        expect(fast).toEqual(zod.data);
      }
      const combined = parseIngestBody(input);
      expect(combined.success).toBe(zod.success);
      if (combined.success) expect(combined.data).toEqual(zod.data);
    }
    expect(fastTaken).toBe(4);
  });
});
