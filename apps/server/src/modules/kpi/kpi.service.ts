import {
  type DeviceCompleteness,
  type InverterSummaryAnswer,
  INVERTER_STATE_KEYS,
  INVERTER_STATE_UNKNOWN_KEY,
  type KpiPeriod,
  type PlantKpisAnswer,
  type PlantPowerAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { readCounterDeltas, readNewestTs } from '../../telemetry-store/queries';
import { flagsStamp, readFlagsOfReasons, type FlagRow } from '../data-quality';
import {
  budgetFigures,
  communicationState,
  finalYieldKwhKwp,
  isDaylight,
  lifetimeEnergyKwh,
  operatingStatus,
  periodParts,
  periodRange,
} from './engine';
import { datesUntil, dayStart, localDate } from './engine/telemetry-imports';
import * as repo from './kpi.repository';
import {
  computePlantDay,
  dayCompleteness,
  daySignalIds,
  figuresOfRow,
  modelOf,
  paramsKeyOf,
  periodValuesOf,
  plantConfig,
  rowOfFigures,
  type DayFigures,
  KPI_FLAG_REASONS,
  changesKpis,
  excludedIrradianceHours,
} from './plant-day.service';
import { INVERTER_KEYS, MPPT_KEY } from './signal-map';

const iso = (ms: number) => new Date(ms).toISOString();

/** A plant with the signals its KPIs are computed from. */
export interface PlantWithSignals {
  plant: repo.KpiPlant;
  signals: repo.PlantSignals;
}

/** Dates from `from` (inclusive) to `to` (exclusive); counted, so it ends whatever the dates. */
const datesBetween = (from: string, to: string): string[] => datesUntil(from, to);

/**
 * The plants' KPIs: live today, materialised finished days (kpi_daily) for anything older, and
 * the power chart and inverter summary built on them (the fleet overview: overview.service.ts).
 */
export class KpiService {
  /**
   * Today's live plant-day per plant, reused while no newer sample of its KPI signals has been stored:
   * a month, a year and the power chart then cost one small query instead of reading the day's
   * 5-minute rollups again. Keyed by date and model parameters, so a new day or an edited plant misses; a
   * late sample older than the newest one shows with the next new sample (every 30 s on the demo).
   */
  private readonly live = new Map<number, { key: string; day: ReturnType<typeof computePlantDay> }>();

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'settings'>) {}

  /** The admin's CO₂ factors in force now (read live: a change applies from the next answer). */
  private co2() {
    return this.ctx.settings.co2Overrides();
  }

  /** A plant's today (or any day) computed up to now; today's answer comes from the cache while current. */
  private async liveDay(plant: repo.KpiPlant, signals: repo.PlantSignals, date: string, now: number) {
    if (date !== localDate(now, plant.timeZone))
      return computePlantDay(this.ctx.db, plant, signals, date, now, this.co2());
    const newest = await readNewestTs(this.ctx.db, daySignalIds(signals));
    const key = `${date}|${newest}|${paramsKeyOf(plant, plantConfig(plant, signals, this.co2()), signals)}|${daySignalIds(signals).join(',')}`;
    const cached = this.live.get(plant.id);
    if (cached?.key === key) return cached.day;
    // Kept while it is computed, too: a plant page asks for the day's, month's and year's KPIs and the power
    // chart at once, and all four share one computation instead of making four.
    const day = computePlantDay(this.ctx.db, plant, signals, date, now, this.co2());
    this.live.set(plant.id, { key, day });
    day.catch(() => {
      if (this.live.get(plant.id)?.day === day) this.live.delete(plant.id);
    });
    return day;
  }

  /** The plant `actor` may see, with its signals; 404 otherwise. */
  async plantOf(actor: Actor, id: number): Promise<PlantWithSignals> {
    const [plant] = await repo.findKpiPlants(this.ctx.db, scopeOf(actor), id);
    if (!plant) throw notFound();
    const signals = (await repo.loadPlantSignals(this.ctx.db, [id])).get(id)!;
    return { plant, signals };
  }

  /**
   * Computes and stores the finished days of a plant that are dirty (late data) or were computed with
   * other parameters, among `dates`; answers their figures by date.
   */
  async refreshDays(
    plant: repo.KpiPlant,
    signals: repo.PlantSignals,
    dirty: readonly repo.DirtyDay[],
  ): Promise<void> {
    const paramsKey = paramsKeyOf(plant, plantConfig(plant, signals, this.co2()), signals);
    for (const d of dirty) {
      const startedAt = this.ctx.now();
      const { result, samples } = await computePlantDay(
        this.ctx.db,
        plant,
        signals,
        d.date,
        Number.MAX_SAFE_INTEGER,
        this.co2(),
      );
      await repo.upsertKpiDay(
        this.ctx.db,
        rowOfFigures(plant.id, d.date, { sums: result.sums, samples }, paramsKey, startedAt),
      );
      await repo.clearDirty(this.ctx.db, plant.id, d.date, d.markedAt);
    }
  }

  /**
   * Stored figures of the finished days in [from, to), recomputing dirty and stale ones first. `flags`: the
   * plant's KPI_FLAG_REASONS flags of at least those days, when the caller has read them already.
   */
  private async finishedDays(
    plant: repo.KpiPlant,
    signals: repo.PlantSignals,
    from: string,
    to: string,
    flags?: FlagRow[],
  ): Promise<Map<string, DayFigures>> {
    const { rows, refreshed } = await this.refreshDirtyAndStale(plant, signals, from, to, flags);
    const current = refreshed ? await repo.readKpiDays(this.ctx.db, plant.id, from, to) : rows;
    return new Map(current.map((r) => [r.date, figuresOfRow(r)]));
  }

  /**
   * Recomputes and stores the dirty and stale finished days in [from, to); answers the stored rows as they
   * were read before that, and whether any day was recomputed (the rows are then out of date).
   */
  private async refreshDirtyAndStale(
    plant: repo.KpiPlant,
    signals: repo.PlantSignals,
    from: string,
    to: string,
    flags?: FlagRow[],
  ): Promise<{ rows: repo.KpiDailyRow[]; refreshed: boolean }> {
    const { db } = this.ctx;
    const paramsKey = paramsKeyOf(plant, plantConfig(plant, signals, this.co2()), signals);
    const dirty = await repo.readDirtyDays(db, [plant.id], from, to);
    const rows = await repo.readKpiDays(db, plant.id, from, to);
    const dirtyDates = new Set(dirty.map((d) => d.date));
    const flagged = flagChangesOf(
      flags ?? (await readFlagsOfReasons(db, plant.id, from, to, KPI_FLAG_REASONS)),
      signals,
      from,
      to,
    );
    const stale = rows
      .filter(
        (r) =>
          (r.params_key !== paramsKey || r.computed_at < (flagged.get(r.date) ?? -Infinity)) &&
          !dirtyDates.has(r.date),
      )
      .map((r) => ({ plantId: plant.id, date: r.date, markedAt: r.computed_at }));
    const refreshed = dirty.length > 0 || stale.length > 0;
    if (refreshed) await this.refreshDays(plant, signals, [...dirty, ...stale]);
    return { rows, refreshed };
  }

  /**
   * Computes and stores the dirty and stale finished days in [from, to), as a read of them would: for a
   * caller that keeps what it builds on the stored days under finishedDaysStamp, which is null while a day
   * of the range is dirty.
   */
  async refreshFinishedDays(
    plant: repo.KpiPlant,
    signals: repo.PlantSignals,
    from: string,
    to: string,
  ): Promise<void> {
    const today = localDate(this.ctx.now(), plant.timeZone);
    // Not finishedDays: its caller reads the days under the stamp it reads next, so reading them here too
    // would read five years of rows twice.
    await this.refreshDirtyAndStale(plant, signals, from, to < today ? to : today);
  }

  /**
   * A stamp of everything daysBetween(plant, signals, from, to) answers from, read with three small queries:
   * the plant's kpi_daily version (a trigger moves it with every write of a stored day), its KPI flags of
   * those days (a flag's change makes a stored day stale), and the plant, its signals and the parameters
   * the days are computed with. Equal stamps, read before the days, mean equal days. Null when the answer
   * may not be kept: a day of the range is marked dirty (late data; daysBetween recomputes it first), or
   * the range reaches today, which is computed live. A caller keeps what it built under the stamp read
   * before reading: read after, a write in between would be kept under the new stamp. New telemetry counts
   * from when its day is marked dirty, as for the stored days themselves (docs/performance.md, "Cost").
   */
  async finishedDaysStamp(
    plant: repo.KpiPlant,
    signals: repo.PlantSignals,
    from: string,
    to: string,
  ): Promise<string | null> {
    const { db } = this.ctx;
    if (to > localDate(this.ctx.now(), plant.timeZone)) return null;
    const version = await repo.readKpiDayVersion(db, plant.id);
    const flags = await flagsStamp(db, plant.id, from, to, KPI_FLAG_REASONS);
    if (await repo.hasDirtyDays(db, plant.id, from, to)) return null;
    // Whole, not paramsKeyOf's (a digest once long): the plant, its signals and the co2 factor in force.
    const inputs = JSON.stringify([plant, signals, plantConfig(plant, signals, this.co2())]);
    return `${version}|${flags}|${inputs}`;
  }

  /**
   * Figures of a plant's local days in [from, to) (YYYY-MM-DD): finished days from kpi_daily (recomputed
   * when dirty or stale), today live; future days are absent. The reports build on it. `flags`: the plant's
   * KPI_FLAG_REASONS flags of at least those days, when the caller has read them already (for many plants
   * at once); read here otherwise.
   */
  async daysBetween(
    plant: repo.KpiPlant,
    signals: repo.PlantSignals,
    from: string,
    to: string,
    flags?: FlagRow[],
  ): Promise<Map<string, DayFigures>> {
    const now = this.ctx.now();
    const today = localDate(now, plant.timeZone);
    const days = await this.finishedDays(plant, signals, from, to < today ? to : today, flags);
    if (from <= today && today < to) {
      const live = await this.liveDay(plant, signals, today, now);
      days.set(today, { sums: live.result.sums, samples: live.samples });
    }
    return days;
  }

  /** GET plants/{id}/kpis, of a plant plantOf has checked and loaded (the route reuses it for `performance`). */
  async kpis(
    { plant, signals }: PlantWithSignals,
    period: KpiPeriod,
    date?: string,
  ): Promise<Omit<PlantKpisAnswer, 'performance'>> {
    const now = this.ctx.now();
    const today = localDate(now, plant.timeZone);
    const day = date ?? today;
    const range = periodRange(period, day, plant.timeZone);
    const firstDate = localDate(range.startMs, plant.timeZone);
    const endDate = localDate(range.endMs, plant.timeZone);
    // Read once: they mark stale stored days and say which irradiance hours were left out.
    const flags = await readFlagsOfReasons(this.ctx.db, plant.id, firstDate, endDate, KPI_FLAG_REASONS);
    const days = await this.finishedDays(plant, signals, firstDate, endDate < today ? endDate : today, flags);
    const includesToday = firstDate <= today && today < endDate;
    let devices: DeviceCompleteness[] | undefined;
    if (includesToday) {
      const live = await this.liveDay(plant, signals, today, now);
      days.set(today, { sums: live.result.sums, samples: live.samples });
      if (period === 'day') devices = live.devices;
    }
    // A finished day's per-device completeness: one query on the daily rollups (kpi_daily keeps the total).
    if (period === 'day' && devices === undefined)
      devices = (await dayCompleteness(this.ctx.db, plant, day, now)).devices;
    const config = plantConfig(plant, signals, this.co2());
    const budgets =
      (
        await repo.readBudgets(
          this.ctx.db,
          [plant.id],
          Number(firstDate.slice(0, 4)),
          Number(endDate.slice(0, 4)),
        )
      ).get(plant.id) ?? new Map();
    const budgetOf = (dates: string[], values: { energy_kwh: number | null; irradiation_kwh_m2: number }) =>
      budgetFigures(dates, budgets, values.energy_kwh, values.irradiation_kwh_m2);
    const rows = periodParts(period, day, plant.timeZone).map((part) => {
      const dates = datesBetween(
        localDate(part.startMs, plant.timeZone),
        localDate(part.endMs, plant.timeZone),
      );
      const values = periodValuesOf(dates, days, today, plant.dcCapacityKwp);
      return { key: part.key, ...values, budget: budgetOf(dates, values) };
    });
    const totals = periodValuesOf(datesBetween(firstDate, endDate), days, today, plant.dcCapacityKwp);
    return {
      plant_id: plant.id,
      period,
      date: day,
      time_zone: plant.timeZone,
      from: iso(range.startMs),
      to: iso(range.endMs),
      includes_today: includesToday,
      ...totals,
      model: modelOf(plant, config, this.co2()),
      rows,
      budget: budgetOf(datesBetween(firstDate, endDate), totals),
      ...(devices === undefined ? {} : { devices }),
      excluded_irradiance_hours: excludedIrradianceHours(
        flags,
        signals,
        range.startMs,
        Math.min(range.endMs, now),
      ),
    };
  }

  /** GET plants/{id}/power */
  async power(actor: Actor, id: number, date?: string): Promise<PlantPowerAnswer> {
    const { plant, signals } = await this.plantOf(actor, id);
    const now = this.ctx.now();
    const day = date ?? localDate(now, plant.timeZone);
    const { result, config } = await this.liveDay(plant, signals, day, now);
    return {
      plant_id: plant.id,
      date: day,
      time_zone: plant.timeZone,
      interval_minutes: 5,
      irradiance_source: result.sums.irradianceSource,
      energy_source: result.sums.energySource,
      model: modelOf(plant, config, this.co2()),
      points: result.series.map((p) => ({
        ts: iso(p.startMs),
        actual_power_kw: p.actualPowerKw,
        meter_power_kw: p.meterPowerKw,
        expected_power_kw: p.expectedPowerKw,
        poa_w_m2: p.poaWm2,
      })),
    };
  }

  /** GET inverters/{id}/summary */
  async inverterSummary(actor: Actor, id: number, date?: string): Promise<InverterSummaryAnswer> {
    const { db } = this.ctx;
    const scope = scopeOf(actor);
    const inverter = await repo.findInverter(db, scope, id);
    if (!inverter) throw notFound();
    const [plant] = await repo.findKpiPlants(db, scope, inverter.plantId);
    if (!plant) throw notFound();
    const now = this.ctx.now();
    const day = date ?? localDate(now, plant.timeZone);
    const signals = (await repo.loadPlantSignals(db, [plant.id])).get(plant.id)!;
    const own = await repo.readDeviceLatest(db, id);
    const value = (key: string) => own.find((s) => s.key === key)?.value ?? null;

    // Each inverter's share of P0 by rating: the plant's DC/AC ratio applied to its rated AC power.
    const ratedSum = signals.inverters.reduce((a, i) => a + (i.ratedAcKw ?? 0), 0);
    const kwpOf = (ratedKw: number | null) =>
      plant.dcCapacityKwp !== null && ratedKw !== null && ratedSum > 0
        ? (plant.dcCapacityKwp * ratedKw) / ratedSum
        : null;
    const startMs = dayStart(day, plant.timeZone);
    const counters = signals.inverters.flatMap((i) => (i.energyTotal ? [i.energyTotal.signalId] : []));
    const energyOf = await readCounterDeltas(db, counters, startMs, startMs + 1);
    const plantInverters = signals.inverters.map((i) => {
      const delta = i.energyTotal ? (energyOf.get(i.energyTotal.signalId) ?? null) : null;
      const energy = delta === null ? null : delta * i.energyTotal!.kwhPerUnit;
      return {
        device_id: i.deviceId,
        name: i.name,
        energy_kwh: energy,
        specific_yield_kwh_kwp: finalYieldKwhKwp(energy, kwpOf(i.ratedAcKw)),
      };
    });
    const mine = plantInverters.find((i) => i.device_id === id);

    const mppts = new Map<
      number,
      { dc_voltage_v: number | null; dc_current_a: number | null; dc_power_kw: number | null }
    >();
    for (const s of own) {
      const m = MPPT_KEY.exec(s.key);
      if (!m) continue;
      const n = Number(m[1]);
      const entry = mppts.get(n) ?? { dc_voltage_v: null, dc_current_a: null, dc_power_kw: null };
      if (m[2] === 'voltage') entry.dc_voltage_v = s.value;
      else if (m[2] === 'current') entry.dc_current_a = s.value;
      else entry.dc_power_kw = s.value;
      mppts.set(n, entry);
    }
    const lifetime = value(INVERTER_KEYS.energyTotal);
    const lifetimeKwhPerUnit = signals.inverters.find((i) => i.deviceId === id)?.energyTotal?.kwhPerUnit ?? 1;
    const ac = value(INVERTER_KEYS.acPower);
    const dc = value(INVERTER_KEYS.dcPower);
    const reportedEfficiency = value(INVERTER_KEYS.efficiencyPercent);
    const code = value(INVERTER_KEYS.statusCode);
    const lastDataMs = own.reduce<number | null>(
      (m, s) => (s.ts !== null && (m === null || s.ts > m) ? s.ts : m),
      null,
    );
    const alarms = (await repo.readActiveAlarms(db, [plant.id])).filter((a) => a.deviceId === id);
    const status = operatingStatus({
      activeAlarms: alarms.flatMap((a) =>
        Array.from({ length: a.count }, () => ({
          priorityId: a.priorityId,
          source: a.source,
        })),
      ),
      communication: communicationState(lastDataMs, now, inverter.pollIntervalS),
      isDaylight:
        plant.latitude === null ||
        plant.longitude === null ||
        isDaylight(now, plant.latitude, plant.longitude),
    });
    return {
      device_id: id,
      plant_id: plant.id,
      name: inverter.name,
      date: day,
      time_zone: plant.timeZone,
      status,
      rated_power_kw: inverter.ratedAcKw,
      dc_capacity_kwp: kwpOf(inverter.ratedAcKw),
      ac_power_kw: ac,
      dc_power_kw: dc,
      efficiency:
        reportedEfficiency !== null && reportedEfficiency > 0
          ? reportedEfficiency / 100
          : ac !== null && dc !== null && dc > 0
            ? ac / dc
            : null,
      dc_voltage_v: value(INVERTER_KEYS.dcVoltage),
      dc_current_a: value(INVERTER_KEYS.dcCurrent),
      temperature_c: value(INVERTER_KEYS.temperature),
      status_code: code,
      status_text_key: code === null ? null : (INVERTER_STATE_KEYS[code] ?? INVERTER_STATE_UNKNOWN_KEY),
      mppts: [...mppts.entries()].sort((a, b) => a[0] - b[0]).map(([index, m]) => ({ index, ...m })),
      energy_kwh: mine?.energy_kwh ?? null,
      lifetime_energy_kwh: lifetimeEnergyKwh(lifetime === null ? null : lifetime * lifetimeKwhPerUnit),
      specific_yield_kwh_kwp: mine?.specific_yield_kwh_kwp ?? null,
      plant_inverters: plantInverters,
      last_data_at: lastDataMs === null ? null : iso(lastDataMs),
    };
  }
}

/**
 * When the flags that change a KPI day (KPI_FLAG_REASONS) of each local day in [from, to) were last found or
 * accepted: a day stored before that is recomputed, so a replayed day found after midnight, or a flag an
 * operator accepts, reaches the stored figures on the next read.
 */
function flagChangesOf(
  flags: readonly FlagRow[],
  signals: repo.PlantSignals,
  from: string,
  to: string,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of flags) {
    if (f.localDay < from || f.localDay >= to || !changesKpis(f, signals)) continue;
    const at = Math.max(f.detectedAt, f.acceptedAt ?? 0);
    out.set(f.localDay, Math.max(out.get(f.localDay) ?? 0, at));
  }
  return out;
}
