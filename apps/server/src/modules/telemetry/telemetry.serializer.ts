import { serializerCompiler } from 'fastify-type-provider-zod';
import { telemetryAnswer, type LatestValue, type TelemetryAnswer } from '@solar/shared';
import { safeEncode } from 'zod/v4/core';

type Compile = typeof serializerCompiler;

/** The answer's schema with each series' points left out: zod checks everything but the big arrays. */
const head = telemetryAnswer.extend({
  series: telemetryAnswer.shape.series.element.omit({ points: true }).array(),
});

/** A point as the schema takes it: [finite number, finite number or null], nothing more. */
function pointsValid(points: unknown): points is [number, number | null][] {
  if (!Array.isArray(points)) return false;
  for (const p of points as unknown[]) {
    if (!Array.isArray(p) || p.length !== 2) return false;
    // Indexed, not destructured: destructuring goes through the array's iterator. For 14,400 points that
    // left 150–190 KiB of garbage per answer and took 2–6× as long (a micro-benchmark, docs/benchmarks.md).
    const ts: unknown = p[0];
    const value: unknown = p[1];
    if (typeof ts !== 'number' || !Number.isFinite(ts)) return false;
    if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) return false;
  }
  return true;
}

/**
 * The serializer of GET /api/telemetry's 200 answer: the same contract as the app-wide zod serializer (the
 * answer must match telemetryAnswer, else the call fails), without zod walking and copying every point —
 * for a day of 5-minute power of 50 inverters (14,400 tuples) that walk cost more than the JSON itself
 * (docs/benchmarks.md). The rest of the answer goes through zod (unknown keys dropped); the points are
 * checked by one loop and serialised as they are. Anything that fails the quick check goes through zod,
 * which then reports it as the app-wide serializer would.
 */
export const telemetryAnswerSerializer: Compile = (route) => {
  const full = serializerCompiler(route);
  if (String(route.httpStatus) !== '200') return full;
  return (data) => {
    const answer = data as TelemetryAnswer;
    if (!answer || !Array.isArray(answer.series) || !answer.series.every((s) => pointsValid(s?.points)))
      return full(data);
    const checked = safeEncode(head, answer);
    if (checked.error) return full(data);
    const series = checked.data.series.map((s, i) => ({ ...s, points: answer.series[i]!.points }));
    return JSON.stringify({ ...checked.data, series });
  };
};

/** One latest value as the schema takes it: its six fields of the right types (null unit allowed). */
function latestValid(v: unknown): v is LatestValue {
  if (typeof v !== 'object' || v === null) return false;
  const { signal_id, device_id, key, unit, ts, value } = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(signal_id) &&
    Number.isSafeInteger(device_id) &&
    typeof key === 'string' &&
    (unit === null || typeof unit === 'string') &&
    typeof ts === 'string' &&
    typeof value === 'number' &&
    Number.isFinite(value)
  );
}

/**
 * The serializer of GET /api/telemetry/latest's 200 answer: the contract of latestAnswer checked by one loop
 * and written with the schema's keys in the schema's order, as the app-wide zod serializer writes it. For a
 * plant of 1,000 signals zod's walk allocated about 1 MiB and cost ten times the JSON.stringify itself; that
 * garbage brought the young-generation GC into every fifth call (docs/benchmarks.md, "Query tails on
 * PostgreSQL"). Anything that fails the check goes through zod, which then reports it.
 */
export const latestAnswerSerializer: Compile = (route) => {
  const full = serializerCompiler(route);
  if (String(route.httpStatus) !== '200') return full;
  return (data) => {
    const items = (data as { items?: unknown } | null)?.items;
    if (!Array.isArray(items) || !items.every(latestValid)) return full(data);
    return JSON.stringify({
      items: items.map((v) => ({
        signal_id: v.signal_id,
        device_id: v.device_id,
        key: v.key,
        unit: v.unit,
        ts: v.ts,
        value: v.value,
      })),
    });
  };
};
