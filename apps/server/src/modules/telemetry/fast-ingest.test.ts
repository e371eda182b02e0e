import { afterAll, describe, expect, it } from 'vitest';
import { telemetryIngestBody } from '@solar/shared';
import {
  INGEST_COLUMN_LIMITS,
  parseIngestBody,
  parseIngestFast,
  type IngestBody,
  type IngestBodyParsed,
} from './fast-ingest';
import type { IngestColumns } from './ingest-columns';
import { IngestParseThread } from './ingest-parse-thread';

/** Columns as the object body zod answers (a NaN value is null), to compare the two. */
function bodyOfColumns(columns: IngestColumns): IngestBodyParsed {
  const points = Array.from(columns.signal_id, (signal_id, i) => {
    const value = columns.value[i]!;
    return { signal_id, ts: columns.ts[i]!, value: Number.isNaN(value) ? null : value };
  });
  return { points };
}
const asBody = (data: IngestBody) => ('points' in data ? data : bodyOfColumns(data));

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
        expect(bodyOfColumns(fast)).toEqual(zod.data);
      }
      const combined = parseIngestBody(input);
      expect(combined.success).toBe(zod.success);
      if (combined.success) expect(asBody(combined.data)).toEqual(zod.data);
    }
    expect(fastTaken).toBe(4);
  });
});

describe('ingest parse thread', () => {
  const warnings: string[] = [];
  const thread = new IngestParseThread(INGEST_COLUMN_LIMITS, (_details, message) => warnings.push(message));
  afterAll(() => thread.close());
  const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

  it('answers every body exactly as the fast path on the main thread does', async () => {
    let answered = 0;
    for (const input of cases) {
      // What the main thread would parse from the same bytes (JSON has no -0, for one).
      const text = JSON.stringify(input);
      const columns = await thread.parse(new TextEncoder().encode(text));
      const fast = parseIngestFast(JSON.parse(text));
      expect(columns, text.slice(0, 100)).toEqual(fast);
      if (columns) answered++;
    }
    expect(answered).toBe(4);
    // A null value crosses as NaN and comes back null; -0 stays -0.
    const text = '{"points":[{"signal_id":3,"ts":5,"value":null},{"signal_id":3,"ts":6,"value":-0}]}';
    const columns = await thread.parse(new TextEncoder().encode(text));
    expect(Object.is(columns!.value[1], -0)).toBe(true);
    expect(bodyOfColumns(columns!)).toEqual(JSON.parse(text));
  });

  it('leaves invalid JSON, escapes and the keys the secure parser screens for to the main thread', async () => {
    const point = '{"signal_id":1,"ts":1,"value":1}';
    for (const text of [
      `{"points":[${point},]}`,
      `{"points":[${point}],"note":"\\u0041"}`,
      `{"points":[${point}],"__proto__":{"x":1}}`,
      `{"points":[${point}],"constructor":{"prototype":{}}}`,
      '',
    ]) {
      expect(await thread.parse(new TextEncoder().encode(text)), text).toBeUndefined();
    }
    // The caller's bytes stay its own (the thread takes a copy).
    const bytes = new TextEncoder().encode(`{"points":[${point}]}`);
    expect(await thread.parse(bytes)).toBeDefined();
    expect(new TextDecoder().decode(bytes)).toBe(`{"points":[${point}]}`);
  });

  it('answers "parse it yourself" once its thread has died, and says so once', async () => {
    const other = new IngestParseThread(INGEST_COLUMN_LIMITS, (_details, message) => warnings.push(message));
    const body = bytesOf({ points: [{ signal_id: 1, ts: 1, value: 1 }] });
    expect(await other.parse(body)).toBeDefined();
    await other.current!.terminate();
    expect(await other.parse(body)).toBeUndefined();
    expect(await other.parse(body)).toBeUndefined();
    expect(warnings.filter((w) => w.includes('parse thread failed'))).toHaveLength(1);
    await other.close();
    expect(warnings).toHaveLength(1);
  });
});
