/**
 * Small robust statistics the performance engine shares: median, quantiles, a seeded random generator (so a
 * bootstrap or Monte-Carlo answer is the same on every run) and the Theil-Sen slope.
 */

/** Median of the values (NaN for none). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * The q-quantile with linear interpolation between order statistics (Hyndman & Fan 1996, type 7: the
 * default of numpy.percentile, which RdTools' bootstrap intervals use). NaN for no values.
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return quantileSorted(sorted, q);
}

/** quantile() of values already sorted ascending. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * Math.min(Math.max(q, 0), 1);
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * A seeded uniform generator on [0, 1), mulberry32 (Tommy Ettinger, public domain): fast, 32-bit state,
 * good enough for resampling; not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw from two uniforms (Box-Muller). */
export function normalDraw(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export interface TheilSenFit {
  /** Median of the pairwise slopes. */
  slope: number;
  /** Median of y − slope·x. */
  intercept: number;
  /** The slope's confidence bounds from the pairwise slopes' order statistics (Sen 1968), at `level`. */
  slopeLow: number;
  slopeHigh: number;
}

/**
 * Theil-Sen line (Theil 1950, Sen 1968): the median of all pairwise slopes, robust to a third of outliers;
 * its interval takes the order statistics of the pairwise slopes at ranks (N ∓ z·σ_S)/2 with
 * σ_S² = n(n−1)(2n+5)/18, Sen's distribution-free bounds (scipy.stats.theilslopes describes the same).
 * Null with fewer than 3 distinct x.
 */
export function theilSen(xs: readonly number[], ys: readonly number[], level = 0.95): TheilSenFit | null {
  const n = Math.min(xs.length, ys.length);
  const slopes: number[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = xs[j]! - xs[i]!;
      if (dx !== 0) slopes.push((ys[j]! - ys[i]!) / dx);
    }
  if (slopes.length < 3) return null;
  slopes.sort((a, b) => a - b);
  const slope = quantileSorted(slopes, 0.5);
  const intercepts: number[] = [];
  for (let i = 0; i < n; i++) intercepts.push(ys[i]! - slope * xs[i]!);
  const z = normalQuantile(0.5 + level / 2);
  const sigma = Math.sqrt((n * (n - 1) * (2 * n + 5)) / 18);
  const count = slopes.length;
  const lowRank = Math.max(0, Math.floor((count - z * sigma) / 2));
  const highRank = Math.min(count - 1, Math.ceil((count + z * sigma) / 2));
  return { slope, intercept: median(intercepts), slopeLow: slopes[lowRank]!, slopeHigh: slopes[highRank]! };
}

/** The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p <= 0) return Number.NEGATIVE_INFINITY;
  if (p >= 1) return Number.POSITIVE_INFINITY;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
