import { z } from 'zod';
import { refId } from './common';
import { TELEMETRY_MAX_SIGNALS } from './telemetry';
import { V } from './validation';

/** Path of the live push connection (Server-Sent Events over fetch; the token goes in the header). */
export const STREAM_PATH = 'stream';
/** Most open stream connections one user may hold at once (one per browser tab is the norm). */
export const STREAM_MAX_CONNECTIONS_PER_USER = 10;
/** Seconds between heartbeat comments: proxies close connections that stay silent for longer. */
export const STREAM_HEARTBEAT_S = 15;
/** Shortest gap between two `latest` events of one connection: at most four a second. */
export const STREAM_MIN_INTERVAL_MS = 250;

/** `hello` event data: the id to name in POST stream/{connection_id}/subscriptions. */
export const streamHello = z.object({ connection_id: z.string() });
export type StreamHello = z.infer<typeof streamHello>;

/** POST stream/{connection_id}/subscriptions: the full set of signals to watch (replaces the previous set). */
export const streamSubscriptionBody = z.object({
  signal_ids: z
    .array(refId(), { error: V.required })
    .max(TELEMETRY_MAX_SIGNALS, { error: V.tooMany })
    .transform((ids) => [...new Set(ids)]),
});
export type StreamSubscriptionBody = z.input<typeof streamSubscriptionBody>;

export const streamConnectionParam = z.object({
  connection_id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: V.invalidValue }),
});

/** The answer of a subscription change: the signals now watched. */
export const streamSubscriptionAnswer = z.object({ signal_ids: z.array(z.number().int()) });
export type StreamSubscriptionAnswer = z.infer<typeof streamSubscriptionAnswer>;
