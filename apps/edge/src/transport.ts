/**
 * How the sender hands a batch to the console (docs/edge.md, "Forwarding over MQTT"): over HTTPS ingest
 * (https-transport.ts) or MQTT (mqtt-transport.ts). Either resolves only once the console has stored the
 * batch, so that the sender may remove it from the queue; anything else keeps it queued.
 */
import type { TelemetryIngestAnswer, TelemetryPointInput } from '@solar/shared';

/** The points of one batch the console refused one by one (an unknown signal, out of range…). */
export type RefusedPoints = TelemetryIngestAnswer['rejected'];

export interface ReadingTransport {
  /**
   * Resolves once the console acknowledged the batch as stored, with the points it refused one by one;
   * throws `BatchRefusedError` when it refused the batch as a whole for good, any other error when the
   * batch may be sent again (the console or the way to it away, no acknowledgement in time).
   */
  send(points: TelemetryPointInput[]): Promise<{ rejected: RefusedPoints }>;
  close(): Promise<void>;
}

/** The console refused a batch as a whole: it cannot become valid by waiting, so it leaves the queue. */
export class BatchRefusedError extends Error {
  constructor(readonly detail: string) {
    super(`console refused the batch: ${detail.slice(0, 200)}`);
  }
}
