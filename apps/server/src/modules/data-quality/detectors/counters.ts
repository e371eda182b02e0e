import { round, stepMs } from './common';
import type { DetectedFlag, PlantDay, Reading, SignalSeries } from './types';

/** A counter may advance by at most its device's rating over the interval times this margin. */
export const COUNTER_JUMP_FACTOR = 1.2;
/** A drop to below this share of the previous value (or to under 1 kWh) is a reset, not a step back. */
export const COUNTER_RESET_SHARE = 0.05;
/** A 32-bit register wraps when it was within this share of its modulus and restarts within it. */
const WRAP_NEAR_SHARE = 0.1;

/**
 * The modulus 2³² · scale (scale a power of ten, 1e-6…1e3 kWh per count) that a wrap from `before` to
 * `after` went through, with the increase it implies; null when no such modulus fits.
 */
function wrapModulus(
  before: number,
  after: number,
  maxKwh: number,
): { modulus: number; increaseKwh: number } | null {
  for (let e = -6; e <= 3; e++) {
    const modulus = 2 ** 32 * 10 ** e;
    if (before > modulus) continue;
    if (before < (1 - WRAP_NEAR_SHARE) * modulus || after > WRAP_NEAR_SHARE * modulus) return null;
    const increaseKwh = after + modulus - before;
    return increaseKwh <= maxKwh || !Number.isFinite(maxKwh) ? { modulus, increaseKwh } : null;
  }
  return null;
}

/**
 * Counter faults on a cumulative energy counter (kWh), each step judged against the one before (the day's
 * first against `previous`):
 * - counter_wrap: an acc32 counter (counterBits 32) that was within 10 % of 2³² · scale and restarts within
 *   10 % of zero, with an increase through the wrap the device could produce (SunSpec acc32 semantics);
 * - counter_reset: a drop to below 5 % of the previous value or under 1 kWh (a replaced meter, a restarted
 *   simulator); `detail.fromKwh`, `detail.toKwh`;
 * - counter_backwards: any other drop; `detail.dropKwh`;
 * - counter_jump: an increase above ratedPowerKw × elapsed hours × 1.2 (the plant's AC capacity when the
 *   device's rating is unknown): more than the device could produce; `detail.jumpKwh` and `detail.maxKwh`.
 *   The KPI engine never counts this energy as production.
 * The flag runs from the reading before the fault to one interval after the reading that shows it.
 */
export function detectCounterFaults(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  if (series.kind !== 'energy_counter') return [];
  const r = series.readings;
  const step = stepMs(series) ?? 60_000;
  const rating = series.ratedPowerKw ?? plant.acCapacityKw;
  const flags: DetectedFlag[] = [];
  const all: Reading[] = series.previous ? [series.previous, ...r] : r;
  for (let k = 1; k < all.length; k++) {
    const a = all[k - 1]!;
    const b = all[k]!;
    const d = b.value - a.value;
    const hours = (b.ts - a.ts) / 3_600_000;
    const maxKwh = rating !== null ? rating * hours * COUNTER_JUMP_FACTOR : Infinity;
    const flag = (reason: DetectedFlag['reason'], detail: Record<string, number>): void => {
      flags.push({
        signalId: series.signalId,
        deviceId: series.deviceId,
        reason,
        fromMs: Math.max(a.ts, plant.dayStartMs),
        toMs: Math.min(b.ts + step, plant.dayEndMs),
        readings: 1,
        detail,
      });
    };
    if (d < 0) {
      const wrap = series.counterBits === 32 ? wrapModulus(a.value, b.value, maxKwh) : null;
      if (wrap)
        flag('counter_wrap', {
          fromKwh: a.value,
          toKwh: b.value,
          modulusKwh: wrap.modulus,
          increaseKwh: round(wrap.increaseKwh),
        });
      else if (b.value < Math.max(1, COUNTER_RESET_SHARE * a.value))
        flag('counter_reset', { fromKwh: a.value, toKwh: b.value });
      else flag('counter_backwards', { dropKwh: round(-d), fromKwh: a.value, toKwh: b.value });
    } else if (d > maxKwh) {
      flag('counter_jump', { jumpKwh: round(d), maxKwh: round(maxKwh), seconds: round(hours * 3600, 0) });
    }
  }
  return flags;
}
