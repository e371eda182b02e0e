/**
 * The performance analyses of the plants whose pages are open, kept under the stamp of their inputs.
 *
 * Keyed by its exact input (engine/input-memo.ts), an estimate is computed once, but building that key
 * read and hashed all of a plant's stored days on every call: 20–36 ms for the demo's three-year plant, on
 * every KPI call of every page. Here a plant's days and analyses are kept under a stamp that three small
 * queries read (KpiService.finishedDaysStamp) and handed out only while the stamp read now is the same;
 * nothing is invalidated, a changed stamp simply misses (docs/performance.md, "Cost"). One per server
 * (buildApp): plant ids are a database's, and tests run several servers in one process.
 */
export class KeptAnalyses<Days, Analysis> {
  private readonly plants = new Map<number, { stamp: string; days: Days; analyses: Map<string, Analysis> }>();
  /** Analyses being made now, by the key their caller gives (once). */
  private readonly making = new Map<string, Promise<Analysis>>();
  /** Analyses handed out without reading the plant's days: what the tests and the bench look at. */
  hits = 0;

  constructor(
    /** Plants kept, least recently used dropped first: each holds up to five years of its days. */
    private readonly capacity = 64,
    /** Periods kept per plant: a plant page asks for the whole span and a day, a month and a year. */
    private readonly periodsPerPlant = 8,
  ) {}

  /** The plant's days and analyses when kept under `stamp`. Callers must not change them (see `hits`). */
  get(plantId: number, stamp: string) {
    const kept = this.plants.get(plantId);
    if (!kept || kept.stamp !== stamp) return undefined;
    this.plants.delete(plantId);
    this.plants.set(plantId, kept);
    return { days: kept.days, analyses: kept.analyses as ReadonlyMap<string, Analysis> };
  }

  /** Keeps the plant's days and the analysis of `period` under `stamp`, read before the days were. */
  keep(plantId: number, stamp: string, days: Days, period: string, analysis: Analysis): void {
    let kept = this.plants.get(plantId);
    if (!kept || kept.stamp !== stamp) kept = { stamp, days, analyses: new Map() };
    this.plants.delete(plantId);
    this.plants.set(plantId, kept);
    kept.analyses.delete(period);
    kept.analyses.set(period, analysis);
    if (kept.analyses.size > this.periodsPerPlant) kept.analyses.delete(kept.analyses.keys().next().value!);
    if (this.plants.size > this.capacity) this.plants.delete(this.plants.keys().next().value!);
  }

  /**
   * The analysis under `key`, made by `make` unless one is being made now: then every caller shares it. A
   * plant page asks for its day's, month's and year's KPIs at once, and several users open the same plant;
   * an analysis begun a moment before a call is as current as the call.
   */
  once(key: string, make: () => Promise<Analysis>): Promise<Analysis> {
    const making = this.making.get(key);
    if (making) return making;
    const made = make().finally(() => this.making.delete(key));
    this.making.set(key, made);
    return made;
  }

  get size(): number {
    return this.plants.size;
  }
}
