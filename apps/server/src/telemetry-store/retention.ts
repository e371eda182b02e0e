import type { AppContext } from '../context';
import type { Logger } from './telemetry-store';
import { deleteRawBefore } from './telemetry-store.repository';

const HOUR = 3_600_000;

/**
 * Deletes raw points older than the retention in force (the admin panel's setting, by default
 * TELEMETRY_RAW_RETENTION_DAYS); rollups are kept forever.
 */
export async function deleteExpiredRaw(
  ctx: Pick<AppContext, 'db' | 'dialect' | 'settings' | 'now'>,
): Promise<number> {
  const cutoff = ctx.now() - ctx.settings.current().raw_retention_days * 86_400_000;
  return deleteRawBefore(ctx.db, ctx.dialect, cutoff);
}

/** Runs deleteExpiredRaw a minute after start and then hourly; `stop` waits for a run in progress. */
export function startRetention(
  ctx: Pick<AppContext, 'db' | 'dialect' | 'settings' | 'now'>,
  log: Logger & { info(obj: unknown, msg?: string): void },
  options: { firstDelayMs?: number; intervalMs?: number } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = deleteExpiredRaw(ctx)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, 'telemetry retention deleted raw points');
      })
      .catch((error: unknown) => log.error({ err: error }, 'telemetry retention failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, options.firstDelayMs ?? 60_000);
  const timer = setInterval(run, options.intervalMs ?? HOUR);
  first.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
