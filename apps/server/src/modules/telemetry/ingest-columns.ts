/**
 * The check of the common ingest body — numeric signal ids and epoch-ms timestamps — into three columns.
 *
 * `ingestColumnsOf` must stay self-contained: it refers to nothing but its arguments and the language's
 * globals, and this module imports nothing. Its source text is what the parse thread runs
 * (ingest-parse-thread.ts), so the main thread and the thread check a body with the very same code.
 */

/** The bounds of the check (TELEMETRY_MAX_POINTS, ID_MAX and the largest Date), given, not imported. */
export interface IngestColumnLimits {
  maxPoints: number;
  maxId: number;
  maxTs: number;
}

/** One body's points as columns; a null value is NaN (which JSON cannot carry, so nothing else is). */
export interface IngestColumns {
  signal_id: Float64Array;
  ts: Float64Array;
  value: Float64Array;
}

/**
 * The points of `{ points: [{ signal_id, ts, value }, …] }` as columns when every point has that exact
 * numeric shape within the limits; undefined for anything else (ISO timestamps, any invalid input), which
 * the caller then leaves to the zod schema. Extra keys are ignored, as the zod object schemas strip them.
 */
export function ingestColumnsOf(body: unknown, limits: IngestColumnLimits): IngestColumns | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const points = (body as { points?: unknown }).points;
  if (!Array.isArray(points) || points.length < 1 || points.length > limits.maxPoints) return undefined;
  const n = points.length;
  const signalIds = new Float64Array(n);
  const stamps = new Float64Array(n);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p: unknown = points[i];
    if (typeof p !== 'object' || p === null || Array.isArray(p)) return undefined;
    const { signal_id, ts, value } = p as { signal_id?: unknown; ts?: unknown; value?: unknown };
    if (
      typeof signal_id !== 'number' ||
      !Number.isInteger(signal_id) ||
      signal_id < 1 ||
      signal_id > limits.maxId
    ) {
      return undefined;
    }
    if (typeof ts !== 'number' || !Number.isInteger(ts) || ts < 0 || ts > limits.maxTs) return undefined;
    if (value !== null && typeof value !== 'number') return undefined;
    signalIds[i] = signal_id;
    stamps[i] = ts;
    values[i] = value === null ? Number.NaN : value;
  }
  return { signal_id: signalIds, ts: stamps, value: values };
}
