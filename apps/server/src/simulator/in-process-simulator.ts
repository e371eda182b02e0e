import type { FastifyBaseLogger } from 'fastify';
import { createVirtualPlant, type TelemetryPoint, type VirtualPlant } from '@solar/simulator';
import type { AppContext } from '../context';
import { startDemoCameras } from './demo-cameras';
import { latestValues, loadPlantTopology, newestPointTs } from './simulator.repository';

export interface InProcessSimulator {
  /** Devices the simulator feeds; the Modbus poller leaves them alone. */
  readonly deviceIds: ReadonlySet<number>;
  /** Resolves when the first-start history is written (at once when there was none to write). */
  readonly backfilled: Promise<void>;
  stop(): Promise<void>;
}

export interface InProcessSimulatorOptions {
  /** Days of history written on a first start (no stored data yet); 0 writes none. */
  backfillDays: number;
  /** Live sampling interval. */
  intervalMs?: number;
  /** Step of the back-filled history. */
  backfillStepMs?: number;
  seed?: number;
}

const DEFAULT_INTERVAL_MS = 30_000;
const DEFAULT_BACKFILL_STEP_MS = 5 * 60_000;

/**
 * The demo's plants, alive: every active plant of the database becomes a virtual plant (apps/simulator)
 * whose readings go in through the same door as real telemetry (ctx.telemetry.store), so everything
 * downstream — rollups, live push, alarms — sees no difference. On a first start it writes `backfillDays`
 * of history in the background while the server already answers; then it samples every `intervalMs`.
 */
export async function startInProcessSimulator(
  ctx: Pick<AppContext, 'db' | 'telemetry' | 'now'>,
  log: FastifyBaseLogger,
  options: InProcessSimulatorOptions,
): Promise<InProcessSimulator> {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const stepMs = options.backfillStepMs ?? DEFAULT_BACKFILL_STEP_MS;
  const topology = await loadPlantTopology(ctx.db);
  const signalIds = topology.flatMap((p) => p.devices.flatMap((d) => d.signals.map((s) => s.signalId)));
  const deviceIds = new Set(topology.flatMap((p) => p.devices.map((d) => Number(d.deviceId))));

  // Counters continue from what is stored, so a restart does not show a drop to zero.
  const latest = await latestValues(ctx.db, signalIds);
  for (const plant of topology) {
    for (const device of plant.devices) {
      const total = device.signals.find((s) => s.key === 'total_energy');
      const stored = total && latest.get(total.signalId);
      if (stored !== undefined && Number.isFinite(stored)) device.initialTotalEnergyKwh = stored;
    }
  }
  const plants: VirtualPlant[] = topology.map((definition) =>
    createVirtualPlant(definition, { seed: options.seed ?? 1 }),
  );
  // The demo's cameras show these plants' simulated sky (demo-cameras.ts).
  const cameras = await startDemoCameras(ctx, log, plants);

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const store = async (points: TelemetryPoint[]) => {
    if (!stopped && points.length) await ctx.telemetry.store(points);
  };
  const tick = async () => {
    const now = ctx.now();
    const points: TelemetryPoint[] = [];
    for (const plant of plants) {
      for (const device of plant.sample(now)) {
        for (const p of device.points) points.push({ signal_id: p.signalId, ts: now, value: p.value });
      }
    }
    await store(points);
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = tick()
        .catch((error: unknown) => log.error({ err: error }, 'simulator: storing a live sample failed'))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };

  const newest = await newestPointTs(ctx.db, signalIds);
  const backfilled = (async () => {
    const now = ctx.now();
    if (newest === null && options.backfillDays > 0 && plants.length) {
      const from = now - options.backfillDays * 86_400_000;
      const started = performance.now();
      let points = 0;
      for (const plant of plants) {
        if (stopped) break;
        const r = await plant.backfill(from, now, stepMs, async (batch) => {
          await store(batch);
          // Let requests in between batches: the server answers while the history is written.
          await new Promise((resolve) => setImmediate(resolve));
        });
        points += r.points;
      }
      log.info(
        { days: options.backfillDays, points, ms: Math.round(performance.now() - started) },
        'simulator: history back-filled',
      );
    } else {
      // Start the counters' integration now rather than from the epoch.
      for (const plant of plants) plant.sample(newest ?? now);
    }
    await tick();
    schedule();
  })();
  backfilled.catch((error: unknown) => log.error({ err: error }, 'simulator: back-fill failed'));
  log.info({ plants: plants.length, devices: deviceIds.size, intervalMs }, 'simulator: running in-process');

  return {
    deviceIds,
    backfilled: backfilled.catch(() => undefined),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await backfilled.catch(() => undefined);
      await inFlight;
      await cameras.stop();
    },
  };
}
