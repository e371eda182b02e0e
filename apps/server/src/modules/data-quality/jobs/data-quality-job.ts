import type { FastifyBaseLogger } from 'fastify';
import type { Db, Dialect } from '../../../db/database';
import { localDate } from '../../../telemetry-store/buckets';
import * as repo from '../data-quality.repository';
import { DataQualityEngine, previousDate } from '../engine/data-quality-engine';
import { DetectionStopped, type DetectionRunner } from '../engine/detection-runner';

const HOUR_MS = 3_600_000;

/** What the job last ran per plant: the yesterday it finished, and the hour it last ran today in. */
export interface JobMemory {
  yesterday: Map<number, string>;
  todayHour: Map<number, number>;
}

/** A plant day due now. */
export interface DueRun {
  plant: repo.DqPlant;
  day: string;
}

/**
 * What is due at `now`: each plant's yesterday (on its own clock) once its local midnight has passed and
 * it was not run since, and its today once per hour (the day so far, so an outage shows within the hour).
 * Yesterday first, since it is final. Marks what it answers as done in `memory`.
 */
export function dueRuns(plants: readonly repo.DqPlant[], now: number, memory: JobMemory): DueRun[] {
  const yesterdays: DueRun[] = [];
  const todays: DueRun[] = [];
  const hour = Math.floor(now / HOUR_MS);
  for (const plant of plants) {
    const today = localDate(now, plant.timeZone);
    const yesterday = previousDate(today);
    if (memory.yesterday.get(plant.id) !== yesterday) {
      yesterdays.push({ plant, day: yesterday });
      memory.yesterday.set(plant.id, yesterday);
    }
    if (memory.todayHour.get(plant.id) !== hour) {
      todays.push({ plant, day: today });
      memory.todayHour.set(plant.id, hour);
    }
  }
  return [...yesterdays, ...todays];
}

export interface DataQualityJob {
  /** Runs what is due now (the timer does it every interval); answers how many plant days it ran. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The data-quality engine's schedule (docs/data-quality.md, "Engine and API"): every `intervalMs` (5
 * minutes by default) on the node that holds the cluster's lease, each plant's yesterday after its local
 * midnight, and its today once an hour. After a restart every plant's yesterday runs again once: a rerun
 * replaces the day's unaccepted flags and keeps accepted ones, so it changes nothing that was right.
 * With `dataQualityThread` the detectors run there, off the event loop. `stop` (the server's shutdown) ends
 * the thread's plant day in progress at once, rather than wait for seconds of detection, and waits for the
 * pass to see that.
 */
export function startDataQualityJob(
  ctx: { db: Db; dialect: Dialect; now: () => number; dataQualityThread?: DetectionRunner },
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
  options: {
    intervalMs?: number;
    firstDelayMs?: number;
    /** Whether this node runs the cluster's jobs now (its lease); always, without it. */
    leader?: () => boolean;
  } = {},
): DataQualityJob {
  const engine = new DataQualityEngine({ ...ctx, thread: ctx.dataQualityThread });
  const memory: JobMemory = { yesterday: new Map(), todayHour: new Map() };
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();

  const runOnce = async (): Promise<number> => {
    const plants = await repo.findPlants(ctx.db, { all: true });
    const due = dueRuns(plants, ctx.now(), memory);
    const runs = await engine.runDays(due, {
      stopped: () => stopped,
      onError: (run, error) => {
        // The server stops: the plant day in progress ends with the thread, and is not a failure.
        if (stopped && error instanceof DetectionStopped) return;
        // One plant's failure must not hold the fleet back: its days are tried again at the next pass.
        memory.yesterday.delete(run.plant.id);
        memory.todayHour.delete(run.plant.id);
        log.error({ err: error, plantId: run.plant.id, day: run.day }, 'data quality: a plant day failed');
      },
    });
    return runs.length;
  };

  let timer: NodeJS.Timeout | undefined;
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      if (options.leader?.() === false) return schedule(options.intervalMs ?? 5 * 60_000);
      running = runOnce()
        .catch((error: unknown) => log.error({ err: error }, 'data quality: the run failed'))
        .finally(() => schedule(options.intervalMs ?? 5 * 60_000));
    }, delay);
    timer.unref();
  };
  schedule(options.firstDelayMs ?? 60_000);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ctx.dataQualityThread?.cancel();
      await running;
    },
  };
}
