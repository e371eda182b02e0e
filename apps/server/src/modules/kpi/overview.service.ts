import {
  ALARM_PRIORITIES,
  EXCLUDED_IRRADIANCE_REASONS,
  type ExcludedIrradiance,
  type PlantOverviewItem,
  type PlantsOverviewAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { scopeOf, type Scope } from '../../lib/scope';
import { readRollups } from '../../telemetry-store/queries';
import { readFlagsOfReasonsOfPlants } from '../data-quality';
import {
  belowNeighbours,
  type BelowNeighbour,
  finalYieldKwhKwp,
  isDaylight,
  operatingStatus,
  performanceRatio,
  plantEnergy,
  referenceYieldKwhKwp,
  resolvePoa,
} from './engine';
import { dayStart, localDate, nextDate } from './engine/telemetry-imports';
import * as repo from './kpi.repository';
import * as fleet from './overview.repository';
import { excludedIrradianceHours, geometryOf, KPI_FLAG_REASONS } from './plant-day.service';

const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const previousDate = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** Today's local date and start in each time zone. */
function todayPerZone(zones: Iterable<string>, now: number) {
  const dates = new Map<string, string>();
  const starts = new Map<string, number>();
  for (const zone of new Set(zones)) {
    const date = localDate(now, zone);
    dates.set(zone, date);
    starts.set(zone, dayStart(date, zone));
  }
  return { dates, starts };
}

/**
 * GET plants/overview: every plant in scope in a fixed number of queries, each aggregated per plant in the
 * database (overview.repository.ts), so the answer for 2,000 plants reads a few thousand rows rather than
 * every signal of every device. The figures are the plant-day engine's: energy from the meter's export
 * counter or else the inverters' counters, PR today from hourly POA means so far, PR yesterday from the
 * materialised day, and the status rules of engine/status.ts.
 */
export class PlantsOverviewService {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'now'>,
    /** Recomputes a finished day still marked dirty (KpiService). */
    private readonly days: {
      refreshDays(
        plant: repo.KpiPlant,
        signals: repo.PlantSignals,
        dirty: readonly repo.DirtyDay[],
      ): Promise<void>;
    },
  ) {}

  async overview(actor: Actor): Promise<PlantsOverviewAnswer> {
    const { db } = this.ctx;
    const now = this.ctx.now();
    const scope = scopeOf(actor);
    const plants = await repo.findKpiPlants(db, scope);
    if (plants.length === 0) return { items: [] };
    const today = todayPerZone(
      plants.map((p) => p.timeZone),
      now,
    );
    const [inverters, meters, irradiation, comm, alarms, prYesterday, excludedYesterday] = await Promise.all([
      fleet.readInverters(db, scope, today.starts),
      fleet.readMeterExport(db, scope, today.starts),
      this.irradiationToday(scope, plants, today.starts, now),
      fleet.readPlantCommunication(db, scope, now),
      fleet.readActiveAlarmCounts(db, scope),
      this.yesterdays(scope, plants, today.dates),
      this.excludedYesterday(plants, today.dates),
    ]);
    const alarmsOf = new Map<number, fleet.ActiveAlarmCount[]>();
    for (const a of alarms) alarmsOf.set(a.plantId, [...(alarmsOf.get(a.plantId) ?? []), a]);

    const items = plants.map((p): PlantOverviewItem => {
      const inv = inverters.get(p.id);
      const energy = plantEnergy({
        meterExportKwh: meters.get(p.id) ?? null,
        inverterEnergiesKwh: [inv?.energyTodayKwh ?? null],
      });
      const acPowerKw = inv?.acPowerKw ?? null;
      const acCapacityKw = p.acCapacityKw ?? (inv?.ratedAcKw || null);
      const irradiationKwhM2 = irradiation.get(p.id) ?? 0;
      const specificYield = finalYieldKwhKwp(energy.energyKwh, p.dcCapacityKwp);
      const prToday =
        irradiationKwhM2 > 0 ? performanceRatio(specificYield, referenceYieldKwhKwp(irradiationKwhM2)) : null;

      const plantAlarms = alarmsOf.get(p.id) ?? [];
      const link = comm.get(p.id);
      const status = operatingStatus({
        activeAlarms: plantAlarms.flatMap((a) =>
          Array.from({ length: a.count }, () => ({
            priorityId: a.priorityId,
            source: a.source,
          })),
        ),
        communication: link?.online ? 'online' : 'lost',
        // Without coordinates the sun cannot be placed: never call such a plant's silence "night".
        isDaylight: p.latitude === null || p.longitude === null || isDaylight(now, p.latitude, p.longitude),
      });
      const byPriority = (prio: number) =>
        plantAlarms.filter((a) => a.priorityId === prio).reduce((n, a) => n + a.count, 0);
      const [low, medium, high, dangerous] = ALARM_PRIORITIES.map(byPriority) as [
        number,
        number,
        number,
        number,
      ];
      const lastDataMs = link?.lastDataMs ?? null;
      return {
        plant_id: p.id,
        name: p.name,
        field_id: p.fieldId,
        company_id: p.companyId,
        company_name: p.companyName,
        latitude: p.latitude,
        longitude: p.longitude,
        time_zone: p.timeZone,
        status,
        dc_capacity_kwp: p.dcCapacityKwp,
        ac_capacity_kw: acCapacityKw,
        ac_power_kw: acPowerKw,
        ac_capacity_percent:
          acPowerKw !== null && acCapacityKw !== null && acCapacityKw > 0
            ? (acPowerKw / acCapacityKw) * 100
            : null,
        energy_today_kwh: energy.energyKwh,
        energy_source: energy.source,
        specific_yield_today_kwh_kwp: specificYield,
        pr_today: prToday,
        pr_yesterday: prYesterday.get(p.id) ?? null,
        active_alarms: { low, medium, high, dangerous, total: low + medium + high + dangerous },
        last_data_at: lastDataMs === null ? null : iso(lastDataMs),
        below_neighbour: null,
        excluded_irradiance_hours_yesterday: excludedYesterday.get(p.id) ?? NOTHING_EXCLUDED,
      };
    });
    // A plant far below a neighbour under the same sky is a warning, and says which neighbour shows it.
    const below = belowNeighbours(
      items.map((i) => ({
        id: i.plant_id,
        name: i.name,
        fieldId: i.field_id,
        status: i.status,
        acCapacityPercent: i.ac_capacity_percent,
      })),
    );
    return { items: items.map((item) => withNeighbour(item, below.get(item.plant_id))) };
  }

  /**
   * Each plant's in-plane irradiation of its local today so far, kWh/m², from the signal the plant-day
   * engine would choose: the first POA sensor of any station, else the first GHI sensor.
   */
  private async irradiationToday(
    scope: Scope,
    plants: readonly repo.KpiPlant[],
    starts: fleet.TodayStarts,
    now: number,
  ): Promise<Map<number, number>> {
    const { db } = this.ctx;
    const chosen = new Map<number, fleet.IrradianceSignal>();
    for (const s of await fleet.readIrradiance(db, scope, starts, now)) {
      const current = chosen.get(s.plantId);
      if (!current || (current.role === 'ghi' && s.role === 'poa')) chosen.set(s.plantId, s);
    }
    const out = new Map<number, number>();
    const ghi: fleet.IrradianceSignal[] = [];
    for (const s of chosen.values()) {
      if (s.role === 'poa') out.set(s.plantId, s.irradiationWhM2 / 1000);
      else ghi.push(s);
    }
    if (ghi.length === 0) return out;
    // GHI is transposed to the plane hour by hour (sun position), so it needs its hourly buckets.
    const byId = new Map(plants.map((p) => [p.id, p]));
    const hours = await readRollups(
      db,
      '1h',
      ghi.map((s) => s.signalId),
      Math.min(...starts.values()),
      now + 1,
    );
    for (const s of ghi) {
      const plant = byId.get(s.plantId)!;
      const geometry = geometryOf(plant);
      const todayStart = starts.get(plant.timeZone)!;
      let kwhM2 = 0;
      for (const h of hours) {
        if (h.signalId !== s.signalId || h.bucket < todayStart || h.count === 0) continue;
        const elapsedH = (Math.min(h.bucket + HOUR_MS, now) - h.bucket) / HOUR_MS;
        const poa = resolvePoa(
          { tsMs: h.bucket + HOUR_MS / 2, poaWm2: null, ghiWm2: h.sum / h.count },
          geometry,
        ).poaWm2;
        kwhM2 += ((poa ?? 0) * Math.max(elapsedH, 0)) / 1000;
      }
      out.set(s.plantId, kwhM2);
    }
    return out;
  }

  /** Each plant's PR of its local yesterday from kpi_daily, recomputing the days still marked dirty first. */
  /**
   * The hours of each plant's yesterday whose irradiance PR yesterday left out, as the plant page counts
   * them for that day: one flag read for the fleet, and the signals of only the plants with a flag (the
   * doubted ones must be on the plant's irradiance sensor). Plants without a flag are absent.
   */
  private async excludedYesterday(
    plants: readonly repo.KpiPlant[],
    todayDates: ReadonlyMap<string, string>,
  ): Promise<Map<number, ExcludedIrradiance>> {
    const { db } = this.ctx;
    const yesterdays = [...new Set([...todayDates.values()].map(previousDate))].sort();
    const flags = await readFlagsOfReasonsOfPlants(
      db,
      plants.map((p) => p.id),
      yesterdays[0]!,
      yesterdays[yesterdays.length - 1]!,
      KPI_FLAG_REASONS,
    );
    const flagged = plants.filter((p) => flags.get(p.id)!.length > 0);
    if (flagged.length === 0) return new Map();
    const signals = await repo.loadPlantSignals(
      db,
      flagged.map((p) => p.id),
    );
    return new Map(
      flagged.map((p) => {
        const today = todayDates.get(p.timeZone)!;
        return [
          p.id,
          excludedIrradianceHours(
            flags.get(p.id)!,
            signals.get(p.id)!,
            dayStart(previousDate(today), p.timeZone),
            dayStart(today, p.timeZone),
          ),
        ];
      }),
    );
  }

  private async yesterdays(
    scope: Scope,
    plants: readonly repo.KpiPlant[],
    todayDates: ReadonlyMap<string, string>,
  ): Promise<Map<number, number | null>> {
    const { db } = this.ctx;
    const byId = new Map(plants.map((p) => [p.id, p]));
    const yesterdayOf = new Map([...todayDates].map(([zone, date]) => [zone, previousDate(date)] as const));
    const wanted = (plantId: number, date: string) => {
      const p = byId.get(plantId);
      return p !== undefined && yesterdayOf.get(p.timeZone) === date;
    };
    const dates = [...new Set(yesterdayOf.values())].sort();
    const dirty = (await repo.readDirtyDays(db, null, dates[0]!, nextDate(dates[dates.length - 1]!))).filter(
      (d) => wanted(d.plantId, d.date),
    );
    if (dirty.length) {
      const signalsOf = await repo.loadPlantSignals(db, [...new Set(dirty.map((d) => d.plantId))]);
      for (const d of dirty)
        await this.days.refreshDays(byId.get(d.plantId)!, signalsOf.get(d.plantId)!, [d]);
    }
    const rows = (await repo.readDailyPrInputs(db, scope, dates)).filter((r) => wanted(r.plantId, r.date));
    // As the day's KPIs compute it (engine kpisFromSums).
    return new Map(
      rows.map((r) => [
        r.plantId,
        performanceRatio(
          finalYieldKwhKwp(r.prEnergyKwh, byId.get(r.plantId)!.dcCapacityKwp),
          referenceYieldKwhKwp(r.prIrradiationKwhM2),
        ),
      ]),
    );
  }
}

/** No hour left out, by every reason. */
const NOTHING_EXCLUDED = {
  ...Object.fromEntries(EXCLUDED_IRRADIANCE_REASONS.map((r) => [r, 0])),
  total: 0,
} as ExcludedIrradiance;

/** The item as shown: a warning naming its neighbour when it is far below one, else as its own rule said. */
function withNeighbour(item: PlantOverviewItem, below: BelowNeighbour | undefined): PlantOverviewItem {
  if (!below) return item;
  return {
    ...item,
    status: 'warning',
    below_neighbour: {
      plant_id: below.neighbourId,
      name: below.neighbourName,
      ac_capacity_percent: below.neighbourPercent,
    },
  };
}
