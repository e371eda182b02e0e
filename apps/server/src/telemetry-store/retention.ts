import type { AppContext } from '../context';
import {
  createRawPartition,
  deleteRawBefore,
  dropRawPartition,
  listRawPartitions,
  monthStartUtc,
  monthsInDefault,
} from './retention.repository';
import type { Logger } from './telemetry-store';

const HOUR = 3_600_000;
/** Months of raw partitions made ahead of the current one (PostgreSQL), so ingest never waits for one. */
export const RAW_MONTHS_AHEAD = 2;

type RetentionContext = Pick<AppContext, 'db' | 'dialect' | 'settings' | 'now'>;

/** The raw retention in force: the admin panel's setting, by default TELEMETRY_RAW_RETENTION_DAYS. */
const retentionCutoff = (ctx: RetentionContext) =>
  ctx.now() - ctx.settings.current().raw_retention_days * 86_400_000;

/** What one retention run removed: rows deleted one by one, and whole monthly partitions dropped. */
export interface RetentionResult {
  rows: number;
  partitions: string[];
}

/**
 * PostgreSQL: makes the monthly partitions of telemetry_raw from last month (or the oldest retained one, if
 * later) to RAW_MONTHS_AHEAD months ahead, and one for each retained month whose rows wait in the default
 * partition (moving them in): a back-fill further back lands in the default partition first, and empty
 * partitions for a long retention are never made. Answers the partitions made. SQLite has none.
 */
export async function ensureRawPartitions(ctx: RetentionContext): Promise<string[]> {
  if (ctx.dialect !== 'postgres') return [];
  const now = ctx.now();
  const cutoff = retentionCutoff(ctx);
  const have = new Set((await listRawPartitions(ctx.db)).map((p) => p.from));
  const wanted = new Set<number>();
  const last = monthStartUtc(now, RAW_MONTHS_AHEAD);
  for (
    let from = monthStartUtc(Math.max(cutoff, monthStartUtc(now, -1)));
    from <= last;
    from = monthStartUtc(from, 1)
  )
    wanted.add(from);
  for (const from of await monthsInDefault(ctx.db, monthStartUtc(cutoff))) wanted.add(from);
  const made: string[] = [];
  for (const from of [...wanted].sort((a, b) => a - b))
    if (!have.has(from)) made.push(await createRawPartition(ctx.db, from));
  return made;
}

/**
 * Removes raw points older than the retention in force; rollups are kept forever. PostgreSQL
 * drops each monthly partition that lies wholly before the cutoff (a month's points stay until the whole
 * month has expired: at most a month longer than the retention, for no row-by-row delete and no bloat) and
 * deletes from the default partition by row; SQLite deletes by primary-key range.
 */
export async function deleteExpiredRaw(ctx: RetentionContext): Promise<RetentionResult> {
  const cutoff = retentionCutoff(ctx);
  const partitions: string[] = [];
  if (ctx.dialect === 'postgres') {
    for (const p of await listRawPartitions(ctx.db)) {
      if (p.to > cutoff) continue;
      await dropRawPartition(ctx.db, p.name);
      partitions.push(p.name);
    }
  }
  return { rows: await deleteRawBefore(ctx.db, ctx.dialect, cutoff), partitions };
}

/**
 * Runs ensureRawPartitions and deleteExpiredRaw a minute after start and then hourly, on the node that holds
 * the cluster's lease; `stop` waits for a run in progress.
 */
export function startRetention(
  ctx: RetentionContext,
  log: Logger & { info(obj: unknown, msg?: string): void },
  options: {
    firstDelayMs?: number;
    intervalMs?: number;
    /** Whether this node runs the cluster's jobs now (its lease); always, without it. */
    leader?: () => boolean;
  } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped || options.leader?.() === false) return;
    running = ensureRawPartitions(ctx)
      .then(async (made) => {
        if (made.length) log.info({ partitions: made }, 'telemetry retention made raw partitions');
        const { rows, partitions } = await deleteExpiredRaw(ctx);
        if (rows > 0 || partitions.length)
          log.info({ deleted: rows, dropped: partitions }, 'telemetry retention removed raw points');
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
