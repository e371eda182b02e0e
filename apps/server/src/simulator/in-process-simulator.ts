import type { FastifyBaseLogger } from 'fastify';
import type { CommState, DeviceType } from '@solar/shared';
import type {
  DataFaultKind,
  FaultKind,
  FaultRates,
  PlantTruth,
  TelemetryPoint,
  VirtualPlant,
} from '@solar/simulator';
import type { DeviceStateEvent } from '../collectors/modbus/modbus-poller';
import type { AppContext } from '../context';
import { markDaysOfInstantsDirty } from '../modules/kpi';
import { storeHourlyRollups, type HourSeries } from '../telemetry-store/history-rollups';
import { readNewestTs } from '../telemetry-store/queries';
import type { StoredPoint } from '../telemetry-store/telemetry-hub';
import { startDemoCameras } from './demo-cameras';
import type { Simulator } from './load-simulator';
import { latestValues, loadPlantTopology } from './simulator.repository';

export interface InProcessSimulator {
  /** Devices the simulator feeds; the Modbus poller leaves them alone. */
  readonly deviceIds: ReadonlySet<number>;
  /**
   * Resolves when the first-start history is written (at once when there was none to write): true when
   * history was written, false when not (a restart, or none asked for, or it failed).
   */
  readonly backfilled: Promise<boolean>;
  /** Samples every plant at `ctx.now()` and stores it; the timer does this every `intervalMs`. */
  sample(): Promise<void>;
  /** A device stopped or started answering (the simulator's communication loss); answers unsubscribe. */
  onDeviceState(listener: (event: DeviceStateEvent) => void): () => void;
  /** Every device's communication state now, for a listener that starts late (the alarm engine). */
  deviceStates(): DeviceStateEvent[];
  /** Each simulated plant's ground truth (degradation, soiling, injected data faults), in plant id order. */
  truth(): PlantTruth[];
  stop(): Promise<void>;
}

/**
 * Told what the back-filled history contains, plant by plant, one sample time after another: the alarm
 * engine replays it, so the demo's month has the alarms it really contains.
 */
export interface SimulatorHistory {
  observe(points: readonly StoredPoint[]): void;
  deviceState(event: DeviceStateEvent): void;
  /** Each sample time of a plant is judged once its points are observed. */
  tick(now: number, plantId: number): Promise<void>;
}

/** A fault the demo forces, so that a short history and the first live minutes surely have events. */
export interface ScheduledFault {
  /** Index of the plant among the simulated ones (by id); skipped when there is no such plant. */
  plant: number;
  /** The `index`-th device of `type` in the plant; `index: 'all'` every device of the type. */
  device: { type: DeviceType; index: number | 'all' };
  kind: FaultKind;
  at: number;
  durationMs: number;
  /** Share of DC lost by a string loss; active-power limit of a curtailment as a share of rated power. */
  fraction?: number;
}

/**
 * A fault of the data (not of the plant) injected into the first start's history: see DataFault in
 * apps/simulator. `wholeLocalDay` stretches the period to the plant's local day holding `fromMs`.
 */
export interface ScheduledDataFault {
  /** Index of the plant among the simulated ones (by id); skipped when there is no such plant. */
  plant: number;
  device: { type: DeviceType; index: number };
  kind: DataFaultKind;
  signalKey?: string;
  fromMs: number;
  toMs: number;
  wholeLocalDay?: boolean;
  magnitude?: number;
}

export interface InProcessSimulatorOptions {
  /** The simulator package, loaded by loadSimulator (it is optional). */
  simulator: Simulator;
  /** Days of history written on a first start (no stored data yet); 0 writes none. */
  backfillDays: number;
  /** Live sampling interval. */
  intervalMs?: number;
  /** Step of the back-filled history. */
  backfillStepMs?: number;
  seed?: number;
  /** Replays the back-fill's sample times (the alarm engine); absent: the history is only stored. */
  history?: SimulatorHistory;
  /** Fault rates once live (default LIVE_FAULT_RATES). */
  liveFaultRates?: Partial<FaultRates>;
  /** Faults forced on a first start, from its end time (default demoFaultSchedule). */
  schedule?: (backfillEndMs: number) => ScheduledFault[];
  /**
   * Data faults injected into a first start's history, from its end time (default demoDataFaultSchedule:
   * one plant only); those that would start before the history are left out.
   */
  dataFaults?: (backfillEndMs: number) => ScheduledDataFault[];
  /**
   * One plant (index among the simulated ones) whose first-start history reaches `days` back, not before
   * its commissioning: the days before its raw history are the coarse model's (VirtualPlant.hourlyHistory),
   * stored as hourly and daily rollups only, so its degradation and soiling have years to be judged on.
   */
  longHistory?: { plant: number; days: number };
}

const DEFAULT_INTERVAL_MS = 30_000;
const DEFAULT_BACKFILL_STEP_MS = 5 * 60_000;
/**
 * Points per stored batch of the first start's history: each batch is one write transaction, and a
 * sign-in's write waits for the one in progress (db/sqlite-writer-gate.ts). 10,000 (an ingest call's
 * most) held the SQLite lock 1.3 s (median, up to 2.1 s) on a loaded two-core machine, 2,000 hold it
 * 0.33 s (up to 1.2 s); the history takes longer to write (docs/operations.md, "SQLite: who writes").
 */
const BACKFILL_BATCH_POINTS = 2_000;
/**
 * Local days of the long history per transaction of rollups: SQLite writes on the event loop, and ten days
 * of the demo plant (about 4,000 hourly rows and their days) hold it for a fraction of a second.
 */
const LONG_HISTORY_CHUNK_DAYS = 10;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Live fault rates: busier than the history's defaults so that an operator watching the demo sees an
 * event now and then (about one communication dropout per 40 minutes and one inverter trip per 5
 * daylight hours across the six demo plants), while the month of history keeps a believable density.
 */
export const LIVE_FAULT_RATES: Partial<FaultRates> = {
  commLossesPerDay: 0.5,
  commLossDurationMinutes: [3, 20],
  inverterTripsPerDay: 0.1,
};

/**
 * The demo's story, forced whatever the random faults do, from the end of the back-fill: yesterday at
 * 10:00 UTC (daylight in Türkiye and North Macedonia all year) a grid outage at the first plant's meter
 * (grid_available 0) disconnects every inverter, which the KPIs count as grid loss, not downtime; from
 * 08:00 to 10:00 UTC the grid operator curtails every inverter of the second plant to 50 % (SunSpec
 * WMaxLimPct, the waterfall's grid-curtailment step); an inverter of the fourth trips on its own; an inverter of the second stops answering; a
 * string fault costs an inverter of the fifth 40 % of its DC for a day; two hours before the end an
 * inverter of the third trips and is still down; and six minutes into the live phase the meter of the
 * sixth stops answering, so a new alarm arrives within the first quarter of an hour.
 */
export function demoFaultSchedule(backfillEndMs: number): ScheduledFault[] {
  const yesterday10Utc = Math.floor(backfillEndMs / DAY_MS) * DAY_MS - DAY_MS + 10 * HOUR_MS;
  return [
    {
      plant: 0,
      device: { type: 'meter', index: 0 },
      kind: 'grid_outage',
      at: yesterday10Utc,
      durationMs: 40 * MINUTE_MS,
    },
    {
      plant: 1,
      device: { type: 'inverter', index: 'all' },
      kind: 'curtailment',
      at: yesterday10Utc - 2 * HOUR_MS,
      durationMs: 2 * HOUR_MS,
      fraction: 0.5,
    },
    {
      plant: 4,
      device: { type: 'inverter', index: 5 },
      kind: 'string_loss',
      at: yesterday10Utc + 15 * MINUTE_MS,
      durationMs: 26 * HOUR_MS,
      fraction: 0.4,
    },
    {
      plant: 3,
      device: { type: 'inverter', index: 3 },
      kind: 'trip',
      at: yesterday10Utc + 90 * MINUTE_MS,
      durationMs: 50 * MINUTE_MS,
    },
    {
      plant: 1,
      device: { type: 'inverter', index: 1 },
      kind: 'comm_loss',
      at: yesterday10Utc + 2 * HOUR_MS,
      durationMs: 45 * MINUTE_MS,
    },
    {
      plant: 2,
      device: { type: 'inverter', index: 0 },
      kind: 'trip',
      at: backfillEndMs - 2 * HOUR_MS,
      durationMs: 10 * HOUR_MS,
    },
    {
      plant: 5,
      device: { type: 'meter', index: 0 },
      kind: 'comm_loss',
      at: backfillEndMs + 6 * MINUTE_MS,
      durationMs: 10 * MINUTE_MS,
    },
  ];
}

/**
 * The demo's faults of the data, all on the third plant (the others' data stay clean, so the demo's KPIs
 * elsewhere are untouched): its pyranometer sticks for three hours 3 days before the end, an inverter's AC
 * power spikes during a morning 4 days before, another inverter's lifetime counter resets 5 days before,
 * a third one's logger clock runs an hour late for a local day 6 days before, the pyranometer's logger
 * replays the day before 8 days before, and the pyranometer gets dirty (1 %/day) from 20 to 10 days before the end.
 * Each is in the plant's ground truth (InProcessSimulator.truth) with its period.
 */
export function demoDataFaultSchedule(backfillEndMs: number): ScheduledDataFault[] {
  const day10Utc = (daysBefore: number) =>
    Math.floor(backfillEndMs / DAY_MS) * DAY_MS - daysBefore * DAY_MS + 10 * HOUR_MS;
  return [
    {
      plant: 2,
      device: { type: 'weather_station', index: 0 },
      kind: 'stuck_sensor',
      signalKey: 'irradiance',
      fromMs: day10Utc(3) - 2 * HOUR_MS,
      toMs: day10Utc(3) + HOUR_MS,
    },
    {
      plant: 2,
      device: { type: 'inverter', index: 0 },
      kind: 'spikes',
      signalKey: 'ac_power',
      fromMs: day10Utc(4) - 4 * HOUR_MS,
      toMs: day10Utc(4) + 2 * HOUR_MS,
    },
    {
      plant: 2,
      device: { type: 'inverter', index: 1 },
      kind: 'counter_reset',
      signalKey: 'total_energy',
      fromMs: day10Utc(5),
      toMs: day10Utc(5),
    },
    {
      plant: 2,
      device: { type: 'inverter', index: 2 },
      kind: 'clock_shift',
      fromMs: day10Utc(6),
      toMs: day10Utc(6),
      wholeLocalDay: true,
    },
    {
      plant: 2,
      // On the pyranometer, not an inverter: a replayed lifetime counter drops by a day at the replay's
      // start, which a KPI engine that reads every drop as a reset would count as the whole lifetime.
      device: { type: 'weather_station', index: 0 },
      kind: 'replayed_day',
      fromMs: day10Utc(8),
      toMs: day10Utc(8),
      wholeLocalDay: true,
    },
    {
      plant: 2,
      device: { type: 'weather_station', index: 0 },
      kind: 'soiled_irradiance_sensor',
      signalKey: 'irradiance',
      fromMs: day10Utc(20),
      toMs: day10Utc(10),
      magnitude: 0.01,
    },
  ];
}

/**
 * The demo's plants, alive: every active plant of the database becomes a virtual plant (apps/simulator,
 * loaded on demand: load-simulator.ts)
 * whose readings go in through the same door as real telemetry (ctx.telemetry.store), so everything
 * downstream — rollups, live push, alarms — sees no difference. On a first start it writes `backfillDays`
 * of history in the background while the server already answers, each plant in time order so that
 * `history` can replay it; then it samples every `intervalMs`. A device that the
 * simulation takes offline sends nothing and is announced on `onDeviceState`.
 */
export async function startInProcessSimulator(
  ctx: Pick<AppContext, 'db' | 'dialect' | 'telemetry' | 'now'>,
  log: FastifyBaseLogger,
  options: InProcessSimulatorOptions,
): Promise<InProcessSimulator> {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const stepMs = options.backfillStepMs ?? DEFAULT_BACKFILL_STEP_MS;
  const topology = await loadPlantTopology(ctx.db);
  const signalIds = topology.flatMap((p) => p.devices.flatMap((d) => d.signals.map((s) => s.signalId)));
  const deviceIds = new Set(topology.flatMap((p) => p.devices.map((d) => Number(d.deviceId))));
  const plantOfDevice = new Map(
    topology.flatMap((p) => p.devices.map((d) => [Number(d.deviceId), Number(p.plantId)] as const)),
  );

  // Counters continue from what is stored, so a restart shows neither a drop to zero nor a jump.
  const latest = await latestValues(ctx.db, signalIds);
  for (const plant of topology) {
    for (const device of plant.devices) {
      const stored = (key: string) => {
        const signal = device.signals.find((s) => s.key === key);
        const value = signal && latest.get(signal.signalId);
        return value !== undefined && Number.isFinite(value) ? value : undefined;
      };
      device.initialTotalEnergyKwh = stored('total_energy');
      device.initialExportEnergyKwh = stored('export_energy');
      device.initialImportEnergyKwh = stored('import_energy');
    }
  }
  const plants: VirtualPlant[] = topology.map((definition) =>
    options.simulator.createVirtualPlant(definition, { seed: options.seed ?? 1 }),
  );
  // The demo's cameras show these plants' simulated sky (demo-cameras.ts).
  const cameras = await startDemoCameras(ctx, log, plants, options.simulator.renderCameraPng);

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const listeners = new Set<(event: DeviceStateEvent) => void>();
  /** Each device's communication state as last announced; empty: the next sample announces all. */
  const commStates = new Map<number, CommState>();
  let pending: ScheduledFault[] = [];

  const store = async (points: TelemetryPoint[]) => {
    if (!stopped && points.length) await ctx.telemetry.store(points);
  };

  /** Forces the scheduled faults that are due at `ts` (only the plant at `only`, when given). */
  const applyDue = (ts: number, only?: number) => {
    if (!pending.length) return;
    const isDue = (f: ScheduledFault) => f.at <= ts && (only === undefined || f.plant === only);
    const due = pending.filter(isDue);
    pending = pending.filter((f) => !isDue(f));
    for (const f of due) {
      const plant = plants[f.plant];
      if (!plant) continue;
      const ofType = plant.definition.devices.filter((d) => d.type === f.device.type);
      const targets = f.device.index === 'all' ? ofType : ofType.slice(f.device.index, f.device.index + 1);
      for (const d of targets) plant.forceFault(d.deviceId, f.kind, ts, f.durationMs, f.fraction);
    }
  };

  /** Schedules data faults on their plants; a fault that would start before the history is left out. */
  const injectDataFaults = (faults: ScheduledDataFault[], historyFromMs: number) => {
    for (const f of faults) {
      const plant = plants[f.plant];
      const device = plant?.definition.devices.filter((d) => d.type === f.device.type)[f.device.index];
      if (!plant || !device) continue;
      let { fromMs, toMs } = f;
      if (f.wholeLocalDay) {
        const tz = plant.definition.timeZone;
        fromMs = options.simulator.nextLocalMidnight(f.fromMs - DAY_MS, tz);
        toMs = options.simulator.nextLocalMidnight(f.fromMs, tz);
      }
      if (fromMs < historyFromMs) continue;
      plant.injectDataFault({
        kind: f.kind,
        deviceId: device.deviceId,
        signalKey: f.signalKey,
        fromMs,
        toMs,
        magnitude: f.magnitude,
      });
    }
  };

  /** Samples the plants at `ts`: the points to store, and the communication changes. */
  const sampleAll = (ts: number, only?: number) => {
    applyDue(ts, only);
    const points: StoredPoint[] = [];
    const changes: DeviceStateEvent[] = [];
    for (const [index, plant] of plants.entries()) {
      if (only !== undefined && index !== only) continue;
      const plantId = Number(plant.definition.plantId);
      for (const device of plant.sample(ts)) {
        const deviceId = Number(device.deviceId);
        const state: CommState = device.online ? 'online' : 'lost';
        const previous = commStates.get(deviceId) ?? 'unknown';
        if (previous !== state) {
          commStates.set(deviceId, state);
          changes.push({ deviceId, plantId, previous, state, at: ts, lastError: null });
        }
        for (const p of device.points)
          points.push({ signal_id: p.signalId, ts, value: p.value, device_id: deviceId, plant_id: plantId });
      }
    }
    return { points, changes };
  };

  const sample = async () => {
    const { points, changes } = sampleAll(ctx.now());
    await store(points.map(({ signal_id, ts, value }) => ({ signal_id, ts, value })));
    for (const change of changes) for (const listener of [...listeners]) listener(change);
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = sample()
        .catch((error: unknown) => log.error({ err: error }, 'simulator: storing a live sample failed'))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };

  /**
   * The long history of `plant`: from the local midnight of the later of its commissioning and `fromMs`
   * to the local midnight starting the day of `rawFromMs`, the coarse model's hours stored as hourly and
   * daily rollups, LONG_HISTORY_CHUNK_DAYS local days per transaction, and the days marked for the KPI
   * engine (as the history import does: no store listener sees rollups written directly). The plant's
   * counters run on from it, so its first raw reading continues the sum since commissioning. Answers
   * where the raw history takes over.
   */
  const writeLongHistory = async (plant: VirtualPlant, fromMs: number, rawFromMs: number) => {
    const { timeZone, commissioningDate } = plant.definition;
    const plantId = Number(plant.definition.plantId);
    const commissioned = commissioningDate ? Date.parse(`${commissioningDate}T12:00:00Z`) : NaN;
    const midnightOf = (ts: number) => options.simulator.nextLocalMidnight(ts - DAY_MS, timeZone);
    const begin = midnightOf(Number.isFinite(commissioned) ? Math.max(commissioned, fromMs) : fromMs);
    const rawFrom = midnightOf(rawFromMs);
    // The coarse model steps whole hours: a zone whose midnight is not one (UTC+05:30…) keeps the month.
    if (begin >= rawFrom || begin % HOUR_MS !== 0 || rawFrom % HOUR_MS !== 0) return rawFromMs;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const previous = new Map<number, number>();
    const dayNoons: number[] = [];
    let hours = 0;
    let chunkStart = begin;
    while (chunkStart < rawFrom && !stopped) {
      let chunkEnd = chunkStart;
      for (let d = 0; d < LONG_HISTORY_CHUNK_DAYS && chunkEnd < rawFrom; d++) {
        dayNoons.push(chunkEnd + DAY_MS / 2);
        chunkEnd = options.simulator.nextLocalMidnight(chunkEnd + HOUR_MS, timeZone);
      }
      chunkEnd = Math.min(chunkEnd, rawFrom);
      const bySignal = new Map<number, HourSeries & { hours: { hourMs: number; value: number }[] }>();
      for (const p of plant.hourlyHistory(chunkStart, chunkEnd)) {
        let series = bySignal.get(p.signalId);
        if (!series) bySignal.set(p.signalId, (series = { hours: [], previous: previous.get(p.signalId) }));
        series.hours.push({ hourMs: p.hourMs, value: p.value });
      }
      for (const [signalId, series] of bySignal) previous.set(signalId, series.hours.at(-1)!.value);
      hours += await storeHourlyRollups(ctx.db, ctx.dialect, bySignal);
      chunkStart = chunkEnd;
      // Let requests in between chunks: the server answers while the history is written.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await markDaysOfInstantsDirty(ctx.db, plantId, timeZone, dayNoons, ctx.now());
    const used = process.cpuUsage(cpu);
    log.info(
      {
        plantId,
        days: dayNoons.length,
        hourlyRows: hours,
        ms: Math.round(performance.now() - started),
        cpuMs: Math.round((used.user + used.system) / 1000),
      },
      'simulator: long history written as hourly rollups',
    );
    return rawFrom;
  };

  /**
   * Writes the history from `from` to `to` plant after plant (a batch then holds many sample times of few
   * signals, which keeps the rollups cheap), in short transactions of BACKFILL_BATCH_POINTS.
   */
  const backfill = async (from: number, to: number) => {
    let points = 0;
    // A history starts with every device answering: only losses within it are announced.
    for (const id of deviceIds) commStates.set(id, 'online');
    for (const [index, plant] of plants.entries()) {
      const plantId = Number(plant.definition.plantId);
      const long = options.longHistory;
      const start =
        long?.plant === index && long.days > options.backfillDays
          ? await writeLongHistory(plant, to - long.days * DAY_MS, from)
          : from;
      let buffer: TelemetryPoint[] = [];
      for (let ts = start; ts <= to && !stopped; ts += stepMs) {
        const sampled = sampleAll(ts, index);
        for (const p of sampled.points) buffer.push({ signal_id: p.signal_id, ts, value: p.value });
        if (options.history) {
          for (const change of sampled.changes) options.history.deviceState(change);
          options.history.observe(sampled.points);
          await options.history.tick(ts, plantId);
        }
        while (buffer.length >= BACKFILL_BATCH_POINTS) {
          const batch = buffer.slice(0, BACKFILL_BATCH_POINTS);
          buffer = buffer.slice(BACKFILL_BATCH_POINTS);
          points += batch.length;
          await store(batch);
          // Let requests in between batches: the server answers while the history is written.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      points += buffer.length;
      await store(buffer);
    }
    return points;
  };

  const newest = await readNewestTs(ctx.db, signalIds);
  let wrote = false;
  const backfilled = (async () => {
    const now = ctx.now();
    if (newest === null && options.backfillDays > 0 && plants.length) {
      const from = now - options.backfillDays * DAY_MS;
      pending = (options.schedule ?? demoFaultSchedule)(now);
      injectDataFaults((options.dataFaults ?? demoDataFaultSchedule)(now), from);
      const started = performance.now();
      const points = await backfill(from, now);
      log.info(
        { days: options.backfillDays, points, ms: Math.round(performance.now() - started) },
        'simulator: history back-filled',
      );
      wrote = !stopped;
    } else {
      // Start the counters' integration now rather than from the epoch.
      for (const plant of plants) plant.sample(newest ?? now);
    }
    for (const plant of plants) plant.setFaultRates(options.liveFaultRates ?? LIVE_FAULT_RATES);
    await sample();
    schedule();
    return wrote;
  })();
  backfilled.catch((error: unknown) => log.error({ err: error }, 'simulator: back-fill failed'));
  log.info({ plants: plants.length, devices: deviceIds.size, intervalMs }, 'simulator: running in-process');

  return {
    deviceIds,
    backfilled: backfilled.catch(() => false),
    sample,
    onDeviceState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    deviceStates: () =>
      [...commStates].map(([deviceId, state]) => ({
        deviceId,
        plantId: plantOfDevice.get(deviceId)!,
        previous: 'unknown' as const,
        state,
        at: ctx.now(),
        lastError: null,
      })),
    truth: () => plants.map((p) => p.truth()),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await backfilled.catch(() => false);
      await inFlight;
      await cameras.stop();
    },
  };
}
