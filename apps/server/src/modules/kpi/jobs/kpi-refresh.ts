import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../context';
import type { StoredPoint } from '../../../telemetry-store/telemetry-hub';
import { bucketRun, localDate } from '../engine/telemetry-imports';
import * as repo from '../kpi.repository';
import { KpiService } from '../kpi.service';

export interface KpiRefresh {
  /** Recomputes every dirty finished day now (the timer does it every interval). */
  runOnce(): Promise<number>;
  /** Resolves once the marks of the points stored so far are written. */
  flushed(): Promise<void>;
  stop(): Promise<void>;
}

const SLOT_MS = 15 * 60_000;

/**
 * Keeps kpi_daily up to date: every stored point marks its plant's local day dirty (in kpi_dirty_days, so
 * a restart still knows), and every `intervalMs` the finished dirty days are recomputed. Today stays
 * marked and is computed once it is over. On a database that never materialised a day, every day with
 * daily rollups is marked at start.
 */
export function startKpiRefresh(
  ctx: Pick<AppContext, 'db' | 'now' | 'telemetry' | 'settings'>,
  log: FastifyBaseLogger,
  options: {
    intervalMs?: number;
    batch?: number;
    /** Whether this node runs the cluster's jobs now (its lease); always, without it. */
    leader?: () => boolean;
  } = {},
): KpiRefresh {
  const intervalMs = options.intervalMs ?? 30_000;
  const batch = options.batch ?? 50;
  const service = new KpiService(ctx);
  const zones = new Map<number, string>();
  /**
   * Today's marks written and not yet computed: a busy plant's today is written once, not per batch. Only
   * today's: a read recomputes a dirty finished day and clears its mark (kpi.service.ts, finishedDays), on
   * this node or another, so a later point of a past day must write its mark again or the stored day would
   * miss it. No read clears today's mark (today is computed live), so skipping it is safe.
   */
  const marked = new Set<string>();
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;

  const mark = async (points: readonly StoredPoint[]) => {
    const unknown = [...new Set(points.map((p) => p.plant_id))].filter((id) => !zones.has(id));
    if (unknown.length) for (const [id, tz] of await repo.readTimeZones(ctx.db, unknown)) zones.set(id, tz);
    // Distinct 15-minute slots per plant first (numbers, no string per point: a batch is thousands of
    // points of a few plants), then one calendar lookup per slot and zone: no zone offset splits a slot.
    const slotsByPlant = new Map<number, Set<number>>();
    // A batch comes in runs of one plant and one slot (a gateway's catch-up, a logger's message): a point
    // in the same plant and slot as the one before adds nothing.
    let plant = -1;
    let slot = Number.NaN;
    let slots: Set<number> | undefined;
    const slotOf = bucketRun(SLOT_MS);
    for (const p of points) {
      const s = slotOf(p.ts);
      if (p.plant_id === plant && s === slot) continue;
      if (p.plant_id !== plant) {
        plant = p.plant_id;
        slots = slotsByPlant.get(plant);
        if (!slots) slotsByPlant.set(plant, (slots = new Set()));
      }
      slot = s;
      slots!.add(s);
    }
    const fresh = new Map<string, { plantId: number; date: string }>();
    const slotDate = new Map<string, string>();
    const now = ctx.now();
    const todayOf = new Map<string, string>();
    const todays: string[] = [];
    for (const [plantId, slots] of slotsByPlant) {
      const tz = zones.get(plantId);
      if (!tz) continue;
      let today = todayOf.get(tz);
      if (today === undefined) todayOf.set(tz, (today = localDate(now, tz)));
      for (const slot of slots) {
        const slotKey = `${tz}:${slot}`;
        let date = slotDate.get(slotKey);
        if (date === undefined) slotDate.set(slotKey, (date = localDate(slot, tz)));
        const key = `${plantId}:${date}`;
        // Yesterday's mark taken at 23:59 is no reason to skip a point stored after midnight.
        if (fresh.has(key) || (date === today && marked.has(key))) continue;
        fresh.set(key, { plantId, date });
        if (date === today) todays.push(key);
      }
    }
    if (fresh.size === 0) return;
    await repo.markDirty(ctx.db, [...fresh.values()], now);
    for (const k of todays) marked.add(k);
  };
  const unsubscribe = ctx.telemetry.onStored((points) => {
    writing = writing
      .then(() => mark(points))
      .catch((error: unknown) => log.error({ err: error }, 'kpi: marking days dirty failed'));
  });

  const seedOldDatabase = async () => {
    if (!(await repo.kpiDailyEmpty(ctx.db))) return;
    const days = await repo.readRolledUpDays(ctx.db);
    const marks = days.map((d) => ({ plantId: d.plantId, date: localDate(d.bucket, d.timeZone) }));
    if (marks.length) await repo.markDirty(ctx.db, marks, ctx.now());
  };

  const runOnce = async (): Promise<number> => {
    await writing;
    const dirty = await repo.readDirtyDays(ctx.db, null, '0000-01-01', '9999-12-31', batch * 4);
    const plantIds = [...new Set(dirty.map((d) => d.plantId))];
    if (plantIds.length === 0) return 0;
    const plants = new Map(
      (await repo.findKpiPlants(ctx.db, { all: true }))
        .filter((p) => plantIds.includes(p.id))
        .map((p) => [p.id, p]),
    );
    const signalsOf = await repo.loadPlantSignals(ctx.db, plantIds);
    const now = ctx.now();
    let done = 0;
    for (const d of dirty) {
      if (stopped || done >= batch) break;
      const plant = plants.get(d.plantId);
      if (!plant) continue;
      // Today is not finished: it stays marked and is computed live until it is.
      if (d.date >= localDate(now, plant.timeZone)) continue;
      await service.refreshDays(plant, signalsOf.get(d.plantId)!, [d]);
      marked.delete(`${d.plantId}:${d.date}`);
      done++;
    }
    return done;
  };

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = seedOldDatabase().catch((error: unknown) =>
    log.error({ err: error }, 'kpi: marking days of an older database failed'),
  );
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      // Every node marks what it stored; only the lease holder computes.
      if (options.leader?.() === false) return schedule();
      running = runOnce()
        .catch((error: unknown) => log.error({ err: error }, 'kpi: refreshing daily KPIs failed'))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    runOnce,
    flushed: () => writing,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await running;
      await writing;
    },
  };
}
