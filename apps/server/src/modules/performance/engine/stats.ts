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

/**
 * Sample autocorrelation of the values at lags 0…maxLag (the biased estimator, divided by n: the one the
 * block-length rule below is built on). All ones but lag 0 are 0 for a constant series.
 */
export function autocorrelation(values: readonly number[], maxLag: number): number[] {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(n, 1);
  const centred = values.map((v) => v - mean);
  const c0 = centred.reduce((a, v) => a + v * v, 0);
  const acf: number[] = [];
  for (let k = 0; k <= maxLag; k++) {
    if (c0 === 0) {
      acf.push(k === 0 ? 1 : 0);
      continue;
    }
    let c = 0;
    for (let i = 0; i + k < n; i++) c += centred[i]! * centred[i + k]!;
    acf.push(c / c0);
  }
  return acf;
}

/**
 * The block length of a circular block bootstrap of the mean of a dependent series, from its own
 * autocorrelation: Politis & White (2004), "Automatic block-length selection for the dependent bootstrap",
 * Econometric Reviews 23(1):53, with the correction of Patton, Politis & White (2009), Econometric Reviews
 * 28(4):372. The bandwidth M is twice the first lag m after which K_n = max(5, √log₁₀ n) autocorrelations in
 * a row stay within 2·√(log₁₀ n / n); then, with the flat-top kernel λ and the autocovariances R(k),
 * G = Σ_{|k|≤M} λ(k/M)·|k|·R(k), D = (4/3)·(Σ_{|k|≤M} λ(k/M)·R(k))² and b = (2G²/D)^{1/3}·n^{1/3}. An
 * independent series gives about 1. Held within 1 … n/3 (RdTools' bound on a block), rounded up.
 */
export function circularBlockLength(values: readonly number[]): number {
  const n = values.length;
  if (n < 4) return 1;
  const maxLag = Math.min(n - 1, Math.ceil(Math.sqrt(n)) + Math.max(5, Math.ceil(Math.sqrt(Math.log10(n)))));
  const acf = autocorrelation(values, maxLag);
  const kn = Math.max(5, Math.ceil(Math.sqrt(Math.log10(n))));
  const bound = 2 * Math.sqrt(Math.log10(n) / n);
  let m = maxLag - kn;
  for (let lag = 1; lag + kn - 1 <= maxLag; lag++) {
    let small = true;
    for (let k = 0; k < kn; k++) if (Math.abs(acf[lag + k]!) >= bound) small = false;
    if (small) {
      m = lag - 1;
      break;
    }
  }
  const bandwidth = Math.min(2 * Math.max(m, 1), maxLag);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / n;
  const flatTop = (t: number) => (Math.abs(t) <= 0.5 ? 1 : Math.abs(t) <= 1 ? 2 * (1 - Math.abs(t)) : 0);
  let g = 0;
  let spectrum = variance;
  for (let k = 1; k <= bandwidth; k++) {
    const weight = flatTop(k / bandwidth) * acf[k]! * variance;
    g += 2 * k * weight;
    spectrum += 2 * weight;
  }
  const d = (4 / 3) * spectrum * spectrum;
  if (!(d > 0) || g === 0) return 1;
  const b = Math.cbrt((2 * g * g) / d) * Math.cbrt(n);
  return Math.min(Math.max(1, Math.ceil(b)), Math.max(1, Math.floor(n / 3)));
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
 * Null with fewer than 3 distinct x. `varianceFactor` scales σ_S² for serially correlated residuals (n/n*,
 * the ratio of the sample size to its effective size); 1 treats them as independent.
 */
export function theilSen(
  xs: readonly number[],
  ys: readonly number[],
  level = 0.95,
  varianceFactor = 1,
): TheilSenFit | null {
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
  const sigma = Math.sqrt((varianceFactor * n * (n - 1) * (2 * n + 5)) / 18);
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
