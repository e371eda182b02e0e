/**
 * Clouds as a seeded random process. Three layers:
 * - a weather regime per solar day (clear, broken, overcast), drawn from a hash of the seed and the day, so a
 *   given date has the same character whatever the sampling;
 * - a slow Ornstein–Uhlenbeck cloud cover (hours) that wanders around the day's regime;
 * - a fast Ornstein–Uhlenbeck "cloud field" (minutes): the sun is behind a cloud while it exceeds the
 *   quantile that makes the fraction of obscured time equal the cover, which gives the sharp
 *   passing-cloud dips of real irradiance records.
 * The clear-sky index k = GHI / GHI_clear then drops by the optical thickness of the cloud.
 */
import { OrnsteinUhlenbeck, createRandom, hashString } from './random';
import type { Random } from './random';

const DAY_MS = 86_400_000;

export interface CloudState {
  /** Fraction of the sky covered, 0…1. */
  cover: number;
  /** How much the sun is behind a cloud right now, 0…1. */
  obscuration: number;
  /** GHI / clear-sky GHI. */
  clearSkyIndex: number;
}

/** The mean cloud cover of a solar day: a seeded draw, more often clear in summer. */
export function dailyCloudRegime(seed: number, solarDay: number, doy: number, latitude: number): number {
  const random = createRandom(hashString(`${seed}:${solarDay}`));
  const summerPeak = latitude >= 0 ? 196 : 15;
  const clearChance = 0.45 + 0.25 * Math.cos((2 * Math.PI * (doy - summerPeak)) / 365);
  const r = random();
  if (r < clearChance) return 0.02 + 0.08 * random();
  if (r < clearChance + (1 - clearChance) * 0.6) return 0.25 + 0.35 * random();
  return 0.75 + 0.22 * random();
}

/** Clear-sky index while the sun is `obscuration` behind clouds of a sky with `cover`. */
export function clearSkyIndex(cover: number, obscuration: number): number {
  // Thin broken cumulus pass ~45 % of the light, a closed overcast deck ~15 %.
  const opticalLoss = 0.55 + 0.3 * cover;
  return Math.max(1 - obscuration * opticalLoss, 0.05);
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** Stateful, seeded cloud process for one site. */
export class CloudProcess {
  private readonly random: Random;
  private readonly slow: OrnsteinUhlenbeck;
  private readonly fast: OrnsteinUhlenbeck;
  private lastTs: number | undefined;

  constructor(
    private readonly seed: number,
    private readonly latitude: number,
    private readonly longitude: number,
  ) {
    this.random = createRandom(hashString(`clouds:${seed}`));
    this.slow = new OrnsteinUhlenbeck(this.random, 0.1, 3 * 3600, 0.1, 0.1);
    this.fast = new OrnsteinUhlenbeck(this.random, 0, 5 * 60, 1);
  }

  /** Advances to `tsMs` (a time at or after the last call) and answers the sky there. */
  at(tsMs: number, doy: number): CloudState {
    const dtS = this.lastTs === undefined ? 0 : (tsMs - this.lastTs) / 1000;
    const solarDay = Math.floor((tsMs + (this.longitude / 360) * DAY_MS) / DAY_MS);
    this.slow.mean = dailyCloudRegime(this.seed, solarDay, doy, this.latitude);
    if (this.lastTs === undefined) this.slow.value = this.slow.mean;
    this.lastTs = tsMs;
    const cover = Math.min(Math.max(this.slow.step(dtS), 0), 1);
    const z = this.fast.step(dtS);
    // P(z > threshold) = cover for a standard normal z (logistic approximation of the probit, Bowling et al. 2009).
    const p = Math.min(Math.max(cover, 0.005), 0.995);
    const threshold = -Math.log(p / (1 - p)) / 1.702;
    const obscuration = logistic((z - threshold) / 0.15);
    return { cover, obscuration, clearSkyIndex: clearSkyIndex(cover, obscuration) };
  }
}
