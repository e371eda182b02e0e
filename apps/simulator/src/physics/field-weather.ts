/**
 * The weather of a field (plants at the same place): clouds, rain, the air temperature's anomaly and wind
 * as pure functions of the field's seed and the instant, so every plant of a field sees the same cloud at
 * the same minute however (and however often) each one is sampled, and a restart continues the same sky.
 *
 * Each slow quantity is value noise (Perlin 1985, "An image synthesizer", SIGGRAPH '85: seeded values at
 * regular knots, smoothly interpolated), which keeps the character of the earlier Ornstein–Uhlenbeck
 * processes (./clouds.ts) without their state:
 * - a weather regime per solar day (clear, broken, overcast): dailyCloudRegime, as before;
 * - the cloud cover wanders around it with hourly knots;
 * - a fast "cloud field" with knots every few minutes: the sun is behind a cloud while it exceeds the
 *   quantile that makes the obscured time equal the cover (the passing-cloud dips of real records);
 * - rain falls on some overcast days, most often in winter (a Mediterranean climate's dry summer), and is
 *   what washes the modules (./soiling.ts).
 */
import { dayOfYear } from '@solar/pv-model';
import { clearSkyIndex, dailyCloudRegime } from './clouds';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Knot spacing of the fast cloud field: a cumulus passes in a few minutes. */
const CLOUD_KNOT_MS = 4 * 60_000;
/** A second, finer octave so that 30-second samples still see clouds' edges. */
const CLOUD_FINE_KNOT_MS = 60_000;
/** Chance that an overcast day in the depth of winter brings rain; it falls to 0 at midsummer. */
const WINTER_RAIN_CHANCE_WHEN_OVERCAST = 0.8;

export interface FieldSky {
  /** Fraction of the sky covered, 0…1. */
  cover: number;
  /** How much the sun is behind a cloud right now, 0…1. */
  obscuration: number;
  /** GHI / clear-sky GHI. */
  clearSkyIndex: number;
  /** It rains on this solar day. */
  rainDay: boolean;
  /** Deviation of the air temperature from its climate (K), slow (days). */
  ambientAnomalyK: number;
  windSpeedMs: number;
}

/** A 32-bit integer mix of a seed and an index (Wang / Jenkins style avalanche), stateless. */
function mix(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index | 0, 0x9e3779b1)) >>> 0;
  h ^= Math.floor(index / 4294967296) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A uniform number in [0, 1) for a seed and an index. */
export function hashUniform(seed: number, index: number): number {
  return mix(seed, index) / 4294967296;
}

/** A standard normal number for a seed and an index (Box–Muller on two hashed uniforms). */
function hashGaussian(seed: number, index: number): number {
  const u = 1 - hashUniform(seed, 2 * index);
  const v = hashUniform(seed, 2 * index + 1);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Smooth (cosine-eased) interpolation of Gaussian knots every `knotMs`: a stationary slow noise. */
export function valueNoise(seed: number, tsMs: number, knotMs: number): number {
  const x = tsMs / knotMs;
  const k = Math.floor(x);
  const f = x - k;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return hashGaussian(seed, k) * (1 - w) + hashGaussian(seed, k + 1) * w;
}

/** The solar day (days since the epoch at local mean solar time) of an instant at a longitude. */
export function solarDayIndex(tsMs: number, longitude: number): number {
  return Math.floor((tsMs + (longitude / 360) * DAY_MS) / DAY_MS);
}

/** Weather regime and rain of a field's solar day: both pure functions of the field seed and the day. */
export function fieldDay(
  fieldSeed: number,
  solarDay: number,
  latitude: number,
): { regimeCover: number; rain: boolean } {
  const doy = dayOfYear(solarDay * DAY_MS + DAY_MS / 2);
  const regimeCover = dailyCloudRegime(fieldSeed, solarDay, doy, latitude);
  const winterPeak = latitude >= 0 ? 15 : 196;
  const winterness = 0.5 + 0.5 * Math.cos((2 * Math.PI * (doy - winterPeak)) / 365);
  const rainChance = regimeCover >= 0.75 ? WINTER_RAIN_CHANCE_WHEN_OVERCAST * winterness : 0;
  return { regimeCover, rain: hashUniform(fieldSeed ^ 0x5a17, solarDay) < rainChance };
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** One field's weather; holds only a cache of the current day. */
export class FieldWeather {
  private cachedDay = Number.NaN;
  private cached = { regimeCover: 0, rain: false };

  constructor(
    readonly seed: number,
    private readonly latitude: number,
    private readonly longitude: number,
  ) {}

  /** Regime and rain of the solar day of `tsMs`. */
  day(tsMs: number): { regimeCover: number; rain: boolean } {
    const d = solarDayIndex(tsMs, this.longitude);
    if (d !== this.cachedDay) {
      this.cached = fieldDay(this.seed, d, this.latitude);
      this.cachedDay = d;
    }
    return this.cached;
  }

  /** The sky at `tsMs`, the same for every caller and every order of calls. */
  at(tsMs: number): FieldSky {
    const { regimeCover, rain } = this.day(tsMs);
    const cover = Math.min(Math.max(regimeCover + 0.1 * valueNoise(this.seed ^ 0x1, tsMs, HOUR_MS), 0), 1);
    // Two octaves of unit-variance knots; the eased sum's spread is about 0.85, close enough to a standard
    // normal for the quantile below (the obscured share of time follows the cover within a few percent).
    const z =
      (valueNoise(this.seed ^ 0x2, tsMs, CLOUD_KNOT_MS) +
        0.5 * valueNoise(this.seed ^ 0x3, tsMs, CLOUD_FINE_KNOT_MS)) /
      0.95;
    // P(z > threshold) = cover for a standard normal z (logistic approximation of the probit, Bowling et al. 2009).
    const p = Math.min(Math.max(cover, 0.005), 0.995);
    const threshold = -Math.log(p / (1 - p)) / 1.702;
    const obscuration = logistic((z - threshold) / 0.15);
    return {
      cover,
      obscuration,
      clearSkyIndex: clearSkyIndex(cover, obscuration),
      rainDay: rain,
      ambientAnomalyK: 2 * valueNoise(this.seed ^ 0x4, tsMs, 2 * DAY_MS),
      windSpeedMs: Math.max(3 + 1.5 * valueNoise(this.seed ^ 0x5, tsMs, HOUR_MS), 0.2),
    };
  }
}
