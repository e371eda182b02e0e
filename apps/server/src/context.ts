import type { AppConfig } from './config';
import type { Db, Dialect } from './db/database';
import type { AttemptLimiter } from './lib/attempt-limiter';
import type { Mailer } from './lib/mailer';
import type { TokenService } from './lib/tokens';
import type { StreamHub } from './modules/stream/stream.hub';
import type { TelemetryHub } from './telemetry-store/telemetry-hub';

/** What feature modules are given: the database and the shared services, no Fastify. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  dialect: Dialect;
  ping(): Promise<void>;
  tokens: TokenService;
  mailer: Mailer;
  /** Login failures per IP and per email; reset requests per IP and per email. */
  loginLimiter: AttemptLimiter;
  resetLimiter: AttemptLimiter;
  now(): number;
  /** The one door telemetry goes in through, and the feed of what was stored. */
  telemetry: TelemetryHub;
  /** Live push to the browsers' Server-Sent Event streams (latest values, alarms), scoped per connection. */
  stream: StreamHub;
}
