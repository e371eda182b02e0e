import { ID_MAX, TELEMETRY_MAX_POINTS, telemetryIngestBody } from '@solar/shared';
import type { z } from 'zod';

export type IngestBodyParsed = z.output<typeof telemetryIngestBody>;

/**
 * telemetryIngestBody for the common shape — numeric signal ids and epoch-ms timestamps — without zod's
 * per-object cost (zod takes ~10 ms on 10,000 points, a tenth of the time budget of a batch). Answers
 * undefined for anything else (ISO timestamps, any invalid input), and the caller then runs the zod schema,
 * which stays the contract and the source of error messages. fast-ingest.test.ts proves both agree.
 */
export function parseIngestFast(body: unknown): IngestBodyParsed | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const points = (body as { points?: unknown }).points;
  if (!Array.isArray(points) || points.length < 1 || points.length > TELEMETRY_MAX_POINTS) return undefined;
  const out = new Array<IngestBodyParsed['points'][number]>(points.length);
  for (let i = 0; i < points.length; i++) {
    const p: unknown = points[i];
    if (typeof p !== 'object' || p === null || Array.isArray(p)) return undefined;
    const { signal_id, ts, value } = p as { signal_id?: unknown; ts?: unknown; value?: unknown };
    if (
      typeof signal_id !== 'number' ||
      !Number.isInteger(signal_id) ||
      signal_id < 1 ||
      signal_id > ID_MAX
    ) {
      return undefined;
    }
    if (typeof ts !== 'number' || !Number.isInteger(ts) || ts < 0 || ts > 8.64e15) return undefined;
    if (value !== null && typeof value !== 'number') return undefined;
    out[i] = { signal_id, ts, value };
  }
  return { points: out };
}

/** The parsed body: the fast path when it applies, else the zod schema. */
export function parseIngestBody(body: unknown) {
  const fast = parseIngestFast(body);
  return fast ? ({ success: true, data: fast } as const) : telemetryIngestBody.safeParse(body);
}
