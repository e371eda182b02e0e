import {
  dayEnergyLimitKwh,
  daylightHours,
  fiveMinuteIntervals,
  isDayEnergyImpossible,
} from '@solar/pv-model';
import { round } from './common';
import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/** The counter's energy over the day: last reading minus the one before the day (or the day's first). */
export function counterDayEnergyKwh(series: SignalSeries): number | null {
  const r = series.readings;
  if (r.length === 0) return null;
  const start = series.previous ?? r[0]!;
  return r[r.length - 1]!.value - start.value;
}

/**
 * The day's daylight hours by the bound the KPI engine applies too (@solar/pv-model day-energy-bound.ts:
 * 5-minute intervals with the sun's centre above −1° at their start or end), so that a day the KPIs refuse
 * is exactly a day flagged here.
 */
export function plantDaylightHours(
  plant: Pick<PlantDay, 'dayStartMs' | 'dayEndMs'> & { latitude: number | null; longitude: number | null },
): number {
  // Without a position every hour of the day counts, as it does for the KPIs (a plant may lack one).
  const location =
    plant.latitude !== null && plant.longitude !== null
      ? { latitude: plant.latitude, longitude: plant.longitude }
      : null;
  return daylightHours(fiveMinuteIntervals(plant.dayStartMs, plant.dayEndMs), location);
}

/**
 * Impossible day energy, whatever its source: a counter whose day's energy (last reading minus the one
 * before the day) is above the shared day bound (@solar/pv-model dayEnergyLimitKwh: capacity × daylight
 * hours × 1.2) — the plant could not produce it even at full AC power from sunrise to sunset. Each
 * counter is held against its device's rating, capped by the plant's AC capacity (flag on the counter's
 * signal); the sum of the counters whose devices are rated and whose ratings add up to no more than 1.1 ×
 * the plant's AC capacity (its inverters, not a meter that counts the same energy again) is held against
 * the plant's AC capacity (flag with signalId null). `detail`: energyKwh, maxKwh, daylightHours.
 */
export function detectDayEnergyImpossible(series: SignalSeries[], plant: PlantDay): DetectedFlag[] {
  const hours = plantDaylightHours(plant);
  const flags: DetectedFlag[] = [];
  const counters = series.filter((s) => s.kind === 'energy_counter');
  const whole = (
    signalId: number | null,
    deviceId: number | null,
    readings: number,
    energyKwh: number,
    maxKwh: number,
  ) =>
    flags.push({
      signalId,
      deviceId,
      reason: 'day_energy_impossible',
      fromMs: plant.dayStartMs,
      toMs: plant.dayEndMs,
      readings,
      detail: { energyKwh: round(energyKwh, 1), maxKwh: round(maxKwh, 1), daylightHours: round(hours, 2) },
    });
  for (const c of counters) {
    const energy = counterDayEnergyKwh(c);
    const caps = [c.ratedPowerKw, plant.acCapacityKw].filter((x): x is number => x !== null);
    if (energy === null || caps.length === 0) continue;
    const maxKwh = dayEnergyLimitKwh(Math.min(...caps), hours);
    if (maxKwh !== null && isDayEnergyImpossible(energy, maxKwh))
      whole(c.signalId, c.deviceId, c.readings.length, energy, maxKwh);
  }
  if (plant.acCapacityKw !== null) {
    const rated = counters.filter((c) => c.ratedPowerKw !== null && c.readings.length > 0);
    const ratings = rated.reduce((s, c) => s + c.ratedPowerKw!, 0);
    if (rated.length > 1 && ratings <= 1.1 * plant.acCapacityKw) {
      const energy = rated.reduce((s, c) => s + counterDayEnergyKwh(c)!, 0);
      const maxKwh = dayEnergyLimitKwh(plant.acCapacityKw, hours);
      if (maxKwh !== null && isDayEnergyImpossible(energy, maxKwh))
        whole(
          null,
          null,
          rated.reduce((s, c) => s + c.readings.length, 0),
          energy,
          maxKwh,
        );
    }
  }
  return flags;
}
