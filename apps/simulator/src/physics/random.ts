/**
 * Seeded pseudo-random numbers, so a simulated plant repeats exactly for a given seed (tests, demos).
 * mulberry32 (Tommy Ettinger, public domain): 32-bit state, period 2^32, fast and good enough for noise.
 */

/** A stream of uniform numbers in [0, 1). */
export type Random = () => number;

/** FNV-1a 32-bit hash of a string: derives independent, stable sub-seeds from names. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded uniform generator; equal seeds give equal streams. */
export function createRandom(seed: number | string): Random {
  let state = (typeof seed === 'string' ? hashString(seed) : seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller). */
export function gaussian(random: Random): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Uniform in [min, max). */
export function uniform(random: Random, min: number, max: number): number {
  return min + (max - min) * random();
}

/**
 * An Ornstein–Uhlenbeck process dx = θ(μ − x)dt + σ dW, advanced with its exact discretisation
 * (Gillespie 1996, Phys. Rev. E 54, 2084): the step size may vary without changing the statistics, so a
 * 5-minute backfill and a 10-second live feed describe the same weather.
 */
export class OrnsteinUhlenbeck {
  value: number;

  constructor(
    private readonly random: Random,
    /** Long-run mean. */
    public mean: number,
    /** Mean reversion time in seconds (1/θ). */
    private readonly timeConstantS: number,
    /** Stationary standard deviation (σ / √(2θ)). */
    private readonly stationaryStd: number,
    initial?: number,
  ) {
    this.value = initial ?? mean + stationaryStd * gaussian(random);
  }

  /** Advances by `dtS` seconds and answers the new value. */
  step(dtS: number): number {
    if (dtS <= 0) return this.value;
    const decay = Math.exp(-dtS / this.timeConstantS);
    const std = this.stationaryStd * Math.sqrt(1 - decay * decay);
    this.value = this.mean + (this.value - this.mean) * decay + std * gaussian(this.random);
    return this.value;
  }
}
