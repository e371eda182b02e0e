/** Batches through the console's ordinary ingest (POST /api/telemetry): its 2xx is the acknowledgement. */
import type { TelemetryPointInput } from '@solar/shared';
import { ConsoleAnswerError, type ConsoleClient } from './console-client';
import { BatchRefusedError, type ReadingTransport } from './transport';

export class HttpsTransport implements ReadingTransport {
  constructor(private readonly client: ConsoleClient) {}

  async send(points: TelemetryPointInput[]) {
    try {
      return await this.client.ingest(points);
    } catch (error) {
      // A 400 refuses the batch as a whole; 401, 429, 5xx and no answer may pass on a later try.
      if (error instanceof ConsoleAnswerError && error.status === 400)
        throw new BatchRefusedError(error.body);
      throw error;
    }
  }

  async close(): Promise<void> {}
}
