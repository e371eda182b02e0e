import { ID_MAX, TELEMETRY_MAX_POINTS, telemetryIngestBody } from '@solar/shared';
import type { z } from 'zod';
import { ingestColumnsOf, type IngestColumnLimits, type IngestColumns } from './ingest-columns';

export type IngestBodyParsed = z.output<typeof telemetryIngestBody>;
/** What the ingest route hands the service: the parsed body, or the parse thread's columns of it. */
export type IngestBody = IngestBodyParsed | IngestColumns;

/** The bounds telemetryIngestBody puts on the common shape. */
export const INGEST_COLUMN_LIMITS: IngestColumnLimits = {
  maxPoints: TELEMETRY_MAX_POINTS,
  maxId: ID_MAX,
  maxTs: 8.64e15,
};

/** A parsed body's points as columns (a null value as NaN, as the parse thread answers it). */
export function columnsOfPoints(points: IngestBodyParsed['points']): IngestColumns {
  const n = points.length;
  const columns = { signal_id: new Float64Array(n), ts: new Float64Array(n), value: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    columns.signal_id[i] = p.signal_id;
    columns.ts[i] = p.ts;
    columns.value[i] = p.value ?? Number.NaN;
  }
  return columns;
}

/**
 * telemetryIngestBody for the common shape — numeric signal ids and epoch-ms timestamps — without zod's
 * per-object cost (zod takes ~10 ms on 10,000 points, a tenth of the time budget of a batch), answered as
 * the columns the service reads (as the parse thread answers a large body). Undefined for anything else
 * (ISO timestamps, any invalid input): the caller then runs the zod schema, which stays the contract and
 * the source of error messages. fast-ingest.test.ts proves both agree.
 */
export function parseIngestFast(body: unknown): IngestColumns | undefined {
  return ingestColumnsOf(body, INGEST_COLUMN_LIMITS);
}

/** The parsed body: the fast path's columns when it applies, else the zod schema's result. */
export function parseIngestBody(body: unknown) {
  const fast = parseIngestFast(body);
  return fast ? ({ success: true, data: fast as IngestBody } as const) : telemetryIngestBody.safeParse(body);
}
