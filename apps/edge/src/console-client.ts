/**
 * The agent's three calls to the console (packages/shared/src/edge.ts), each with the plant's ingest key in
 * `X-Api-Key` and a deadline, each answer checked against the shared schema.
 */
import {
  edgeConfigAnswer,
  edgeHealthAnswer,
  telemetryIngestAnswer,
  type EdgeConfigAnswer,
  type EdgeHealthAnswer,
  type EdgeHealthBody,
  type TelemetryIngestAnswer,
  type TelemetryPointInput,
} from '@solar/shared';

/** The console answered, but not 2xx. */
export class ConsoleAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`console answered ${status}: ${body.slice(0, 200)}`);
  }
}

export interface ConsoleClientOptions {
  url: string;
  key: string;
  timeoutMs?: number;
}

/**
 * fetch's own message is "fetch failed" whatever went wrong; the reason (a refused connection, a name not
 * found, a certificate the machine does not trust) is in its cause, and it is what an installer reading the
 * log needs (docs/edge.md, "What the installer checks on site").
 */
function withCause(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const reason = [cause?.code, cause?.message].find((r): r is string => typeof r === 'string');
  return reason === undefined ? error : new Error(`${error.message}: ${reason}`, { cause });
}

export class ConsoleClient {
  private readonly base: string;
  constructor(private readonly options: ConsoleClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          'X-Api-Key': this.options.key,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw withCause(error);
    }
    const text = await res.text();
    if (!res.ok) throw new ConsoleAnswerError(res.status, text);
    return JSON.parse(text) as unknown;
  }

  async config(): Promise<EdgeConfigAnswer> {
    return edgeConfigAnswer.parse(await this.call('GET', '/api/edge/config'));
  }

  async health(body: EdgeHealthBody): Promise<EdgeHealthAnswer> {
    return edgeHealthAnswer.parse(await this.call('POST', '/api/edge/health', body));
  }

  async ingest(points: TelemetryPointInput[]): Promise<TelemetryIngestAnswer> {
    return telemetryIngestAnswer.parse(await this.call('POST', '/api/telemetry', { points }));
  }
}
