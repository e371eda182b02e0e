/**
 * String health: each string input of an inverter judged against the median of its siblings, interval by
 * interval (docs/string-health.md). Pure: series in, ratios and faults out; no I/O.
 *
 * Method: a robust peer comparison. Strings of one inverter see the same sky, so in good light their
 * currents differ by module mismatch only; the median of the siblings is a reference that one or two bad
 * strings cannot drag down (the median-based comparison of string currents used for fault detection in the
 * literature, e.g. Platon, Martel, Wood & Pozzebon 2015, "Online fault detection in PV systems", IEEE
 * Trans. Sustain. Energy 6(4):1200; and the robust, median-relative screening pvanalytics applies to
 * fleets of sensors). A string whose current stays under `ratioThreshold` of that median for `sustainMs`
 * of judged time is a fault; one near 0 A while its siblings carry current is an open string or a blown
 * fuse. The energy it loses is (median − its current) × its voltage × Δt over the fault's judged intervals.
 */

/** A series of interval means: interval start (ms) → value. */
export type Series = ReadonlyMap<number, number>;

export interface StringInput {
  /** The string's number on the inverter (string{n}_dc_current). */
  n: number;
  current: Series;
  /** The string's own voltage (string{n}_dc_voltage), when reported. */
  voltage?: Series;
}

export interface InverterStrings {
  strings: readonly StringInput[];
  /** The inverter's DC voltage, used for a string without a voltage of its own. */
  dcVoltage?: Series;
  /** Plane-of-array irradiance of the plant (W/m²); without it, `power` against `ratedKw` decides the light. */
  irradiance?: Series;
  /** The inverter's AC power (kW). */
  power?: Series;
  ratedKw?: number | null;
}

export interface StringHealthOptions {
  /** Interval length of the series (ms). */
  intervalMs: number;
  /** A string under this share of its siblings' median is low. */
  ratioThreshold: number;
  /** A low string is a fault once it stayed low for this much judged time (ms). */
  sustainMs: number;
  /** A fault ends at the first judged interval at or above this ratio (hysteresis above the threshold). */
  recoverRatio: number;
  /** Intervals are judged only above this plane-of-array irradiance (W/m²)… */
  minIrradianceWm2: number;
  /** …or, with no irradiance sensor, above this share of the inverter's rating. */
  minPowerShare: number;
  /** …and only when the siblings' median carries at least this current (A): below it the ratio is noise. */
  minMedianCurrentA: number;
}

/**
 * The defaults: 0.75 and 30 min follow the task's operators' practice (a quarter of a string's current is
 * far beyond module mismatch of a few per cent, and half an hour outlasts a passing cloud edge or a
 * bird); 200 W/m² and 20 % of rating keep dawn, dusk and overcast out, where currents are small and
 * relative mismatch large.
 */
export const STRING_HEALTH_DEFAULTS: Omit<StringHealthOptions, 'intervalMs'> = {
  ratioThreshold: 0.75,
  sustainMs: 30 * 60_000,
  recoverRatio: 0.85,
  minIrradianceWm2: 200,
  minPowerShare: 0.2,
  minMedianCurrentA: 0.5,
};

/** Strings an inverter needs for a median to mean anything. */
export const MIN_STRINGS = 3;

export interface StringInterval {
  /** Interval start (ms). */
  t: number;
  /** The siblings' median current (A) of a judged interval; null when the interval was not judged. */
  median: number | null;
}

export interface StringFault {
  n: number;
  from: number;
  /** The start of the interval it recovered in; null while it lasts. */
  to: number | null;
  /** Median of its ratios over the fault's judged intervals (0…1). */
  ratio: number;
  /** kWh lost over the fault's judged intervals with a known voltage; null if no voltage was known. */
  energyKwh: number | null;
}

export interface StringHealthResult {
  /** Every interval seen, in order, with its median when judged. */
  intervals: StringInterval[];
  /** Per string: its ratio to the median per judged interval (interval start → ratio). */
  ratios: Map<number, Map<number, number>>;
  faults: StringFault[];
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function lit(input: InverterStrings, t: number, o: StringHealthOptions): boolean {
  if (input.irradiance && input.irradiance.size > 0) {
    const g = input.irradiance.get(t);
    return g !== undefined && g > o.minIrradianceWm2;
  }
  const p = input.power?.get(t);
  return p !== undefined && !!input.ratedKw && p > o.minPowerShare * input.ratedKw;
}

interface Run {
  from: number;
  judgedMs: number;
  ratios: number[];
  energyWh: number;
  energyKnown: boolean;
}

/** Judges one inverter's strings over its intervals. */
export function judgeStrings(
  input: InverterStrings,
  options: Partial<StringHealthOptions> & Pick<StringHealthOptions, 'intervalMs'>,
): StringHealthResult {
  const o: StringHealthOptions = { ...STRING_HEALTH_DEFAULTS, ...options };
  const times = new Set<number>();
  for (const s of input.strings) for (const t of s.current.keys()) times.add(t);
  const sorted = [...times].sort((a, b) => a - b);
  const ratios = new Map<number, Map<number, number>>(input.strings.map((s) => [s.n, new Map()]));
  const intervals: StringInterval[] = [];
  const faults: StringFault[] = [];
  const runs = new Map<number, Run>();
  const close = (n: number, run: Run, to: number | null) => {
    if (run.judgedMs >= o.sustainMs)
      faults.push({
        n,
        from: run.from,
        to,
        ratio: median(run.ratios),
        energyKwh: run.energyKnown ? run.energyWh / 1000 : null,
      });
  };
  const hours = o.intervalMs / 3_600_000;
  for (const t of sorted) {
    const present = input.strings.filter((s) => Number.isFinite(s.current.get(t)));
    let m: number | null = null;
    if (present.length >= MIN_STRINGS && lit(input, t, o)) {
      const candidate = median(present.map((s) => s.current.get(t)!));
      if (candidate >= o.minMedianCurrentA) m = candidate;
    }
    intervals.push({ t, median: m });
    if (m === null) continue; // night, low light or too few strings: no judgement, runs neither grow nor end
    for (const s of present) {
      const current = s.current.get(t)!;
      const ratio = current / m;
      ratios.get(s.n)!.set(t, ratio);
      let run = runs.get(s.n);
      if (ratio < o.ratioThreshold || (run && ratio < o.recoverRatio)) {
        if (!run)
          runs.set(s.n, (run = { from: t, judgedMs: 0, ratios: [], energyWh: 0, energyKnown: false }));
        run.judgedMs += o.intervalMs;
        run.ratios.push(ratio);
        const v = s.voltage?.get(t) ?? input.dcVoltage?.get(t);
        if (v !== undefined && Number.isFinite(v)) {
          run.energyWh += Math.max(0, m - current) * v * hours;
          run.energyKnown = true;
        }
      } else if (run) {
        close(s.n, run, t);
        runs.delete(s.n);
      }
    }
  }
  for (const [n, run] of runs) close(n, run, null);
  faults.sort((a, b) => a.from - b.from || a.n - b.n);
  return { intervals, ratios, faults };
}

/** `string{n}_dc_current` → n, `string{n}_dc_voltage` → n (kind says which), anything else → null. */
export function stringSignal(key: string): { n: number; kind: 'current' | 'voltage' } | null {
  const m = /^string(\d{1,2})_dc_(current|voltage)$/.exec(key);
  return m ? { n: Number(m[1]), kind: m[2] as 'current' | 'voltage' } : null;
}
