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

/** Judges one inverter's strings over its intervals, against the median of its own strings. */
export function judgeStrings(
  input: InverterStrings,
  options: Partial<StringHealthOptions> & Pick<StringHealthOptions, 'intervalMs'>,
): StringHealthResult {
  const o: StringHealthOptions = { ...STRING_HEALTH_DEFAULTS, ...options };
  const reference = (t: number): number | null => {
    const present = input.strings.filter((s) => Number.isFinite(s.current.get(t)));
    if (present.length < MIN_STRINGS || !lit(input, t, o)) return null;
    const m = median(present.map((s) => s.current.get(t)!));
    return m >= o.minMedianCurrentA ? m : null;
  };
  return judgeAgainst(input, reference, o);
}

/** Inverters a plant-wide peer group needs, so that one whole inverter gone low is a minority of its strings. */
export const MIN_PEER_INVERTERS = 3;

/** One inverter of a plant-wide peer group: strings of the same configuration under the same sky. */
export interface PeerInverter {
  deviceId: number;
  input: InverterStrings;
}

/**
 * Judges the strings of a group of inverters whose strings share one configuration (same plant, so the same
 * orientation and irradiance; docs/string-health.md, "Plant-wide median") against the median of all the
 * group's strings, interval by interval. It finds what each inverter's own median cannot: an inverter whose
 * strings are all low together (soiled alike, or a DC-side fault common to it), since its own median falls
 * with them. A group of fewer than MIN_PEER_INVERTERS inverters answers nothing. An interval is judged when
 * the plant's irradiance is good (or, without a sensor, when most of the group's inverters have good power),
 * with at least MIN_STRINGS strings reporting and a median of at least `minMedianCurrentA`.
 */
export function judgePeerStrings(
  group: readonly PeerInverter[],
  options: Partial<StringHealthOptions> & Pick<StringHealthOptions, 'intervalMs'>,
): Map<number, StringHealthResult> {
  const out = new Map<number, StringHealthResult>();
  if (group.length < MIN_PEER_INVERTERS) return out;
  const o: StringHealthOptions = { ...STRING_HEALTH_DEFAULTS, ...options };
  const cache = new Map<number, number | null>();
  const reference = (t: number): number | null => {
    const known = cache.get(t);
    if (known !== undefined) return known;
    const litCount = group.filter((g) => lit(g.input, t, o)).length;
    const currents = group.flatMap((g) =>
      g.input.strings.map((s) => s.current.get(t)).filter((v): v is number => Number.isFinite(v)),
    );
    let m: number | null = null;
    if (2 * litCount > group.length && currents.length >= MIN_STRINGS) {
      const candidate = median(currents);
      if (candidate >= o.minMedianCurrentA) m = candidate;
    }
    cache.set(t, m);
    return m;
  };
  for (const g of group) out.set(g.deviceId, judgeAgainst(g.input, reference, o));
  return out;
}

/**
 * The fault rule itself: each string's current over `reference(t)` (null: the interval is not judged),
 * a low run from under `ratioThreshold`, held under `recoverRatio`, a fault once it holds `sustainMs`.
 */
function judgeAgainst(
  input: InverterStrings,
  reference: (t: number) => number | null,
  o: StringHealthOptions,
): StringHealthResult {
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
    const m = reference(t);
    intervals.push({ t, median: m });
    if (m === null) continue; // night, low light or too few strings: no judgement, runs neither grow nor end
    for (const s of input.strings) {
      const current = s.current.get(t);
      if (current === undefined || !Number.isFinite(current)) continue;
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
