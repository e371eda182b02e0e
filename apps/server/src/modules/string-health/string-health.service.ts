import {
  ALARM_PRIORITY,
  STRING_SERIES_MINUTES,
  type DeviceStringsAnswer,
  type DeviceStringsQuery,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { scopeOf } from '../../lib/scope';
import { dayStart, localDate, nextDate } from '../../telemetry-store/buckets';
import { readRollupSeries, type SeriesPoints } from '../../telemetry-store/queries';
import type { RaiseRequest } from '../alarms';
import {
  MIN_PEER_INVERTERS,
  MIN_STRINGS,
  STRING_HEALTH_DEFAULTS,
  judgePeerStrings,
  judgeStrings,
  median,
  stringSignal,
  type InverterStrings,
  type StringFault as EngineFault,
  type StringHealthResult,
} from './engine/string-health';
import * as repo from './string-health.repository';

const FIVE_MIN = 5 * 60_000;
const DAY_MS = 86_400_000;
/** How far back the periodic judgement reads: a fault begun within it is seen from its start. */
export const STRING_HEALTH_LOOKBACK_MS = DAY_MS;
/** Alarm keys of string faults: `string:{deviceId}:{n}`. */
export const STRING_ALARM_PREFIX = 'string:';
export const STRING_FAULT_MESSAGE = 'alarms.msg.stringFault';
export const STRING_FAULT_NO_VOLTAGE_MESSAGE = 'alarms.msg.stringFaultNoVoltage';
/** Alarm keys of an inverter whose strings are low against the plant's peers: `strings-plant:{deviceId}`. */
export const PLANT_STRINGS_ALARM_PREFIX = 'strings-plant:';
export const PLANT_STRINGS_FAULT_MESSAGE = 'alarms.msg.stringsPlantFault';
export const PLANT_STRINGS_FAULT_NO_VOLTAGE_MESSAGE = 'alarms.msg.stringsPlantFaultNoVoltage';

/** One inverter's strings read from the store, with the signal of each string's current. */
interface ReadInverter {
  deviceId: number;
  plantId: number;
  input: InverterStrings;
  currentSignal: Map<number, number>;
}

/**
 * The plant-wide peer groups (docs/string-health.md, "Plant-wide median"): inverters of one plant with the
 * same rating and the same number of strings. The data model holds the orientation per plant (tilt and
 * azimuth) and no module count or peak power per string, so one plant, one rating and one string count is
 * the nearest it comes to "strings of one configuration"; an inverter without a rating joins no group.
 * Groups of fewer than MIN_PEER_INVERTERS are left out: there the median cannot tell which one is low.
 */
function peerGroups(read: readonly ReadInverter[]): ReadInverter[][] {
  const groups = new Map<string, ReadInverter[]>();
  for (const inv of read) {
    if (!inv.input.ratedKw) continue;
    const key = `${inv.plantId}|${inv.input.ratedKw}|${inv.input.strings.length}`;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(inv);
  }
  return [...groups.values()].filter((g) => g.length >= MIN_PEER_INVERTERS);
}

/** Each inverter's judgement against its plant-wide peers, by device id (none for an inverter without peers). */
function judgePeers(
  read: readonly ReadInverter[],
): Map<number, { result: StringHealthResult; peers: ReadInverter[] }> {
  const out = new Map<number, { result: StringHealthResult; peers: ReadInverter[] }>();
  for (const group of peerGroups(read)) {
    const judged = judgePeerStrings(
      group.map((inv) => ({ deviceId: inv.deviceId, input: inv.input })),
      { intervalMs: FIVE_MIN },
    );
    for (const [deviceId, result] of judged) out.set(deviceId, { result, peers: group });
  }
  return out;
}

const toMap = (points: SeriesPoints | undefined): Map<number, number> => {
  const m = new Map<number, number>();
  for (const [t, v] of points ?? []) if (v !== null) m.set(t, v);
  return m;
};

/** The mean of several series per interval (several irradiance sensors of one plant). */
const meanOf = (series: Map<number, number>[]): Map<number, number> => {
  if (series.length === 1) return series[0]!;
  const sums = new Map<number, [number, number]>();
  for (const s of series)
    for (const [t, v] of s) {
      const acc = sums.get(t) ?? [0, 0];
      sums.set(t, [acc[0] + v, acc[1] + 1]);
    }
  return new Map([...sums].map(([t, [sum, n]]) => [t, sum / n]));
};

/**
 * String health over HTTP and on the timer (docs/string-health.md): reads 5-minute means of the strings
 * through the telemetry store, judges them with the pure engine, answers a day's heat map and raises and
 * clears string-fault alarms through the alarm engine.
 */
export class StringHealthService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'dialect' | 'now'>) {}

  /** The inverters among `signals` with at least MIN_STRINGS string currents, read over [from, to). */
  private async read(signals: repo.StringSignalRow[], from: number, to: number): Promise<ReadInverter[]> {
    const byDevice = new Map<number, repo.StringSignalRow[]>();
    for (const s of signals) {
      let list = byDevice.get(s.deviceId);
      if (!list) byDevice.set(s.deviceId, (list = []));
      list.push(s);
    }
    const eligible = [...byDevice.values()].filter(
      (list) => list.filter((s) => stringSignal(s.key)?.kind === 'current').length >= MIN_STRINGS,
    );
    if (eligible.length === 0) return [];
    const plantIds = [...new Set(eligible.map((l) => l[0]!.plantId))];
    const poa = await repo.poaSignals(this.ctx.db, plantIds);
    const rated = await repo.ratings(
      this.ctx.db,
      eligible.map((l) => l[0]!.deviceId),
    );
    const ids = [...eligible.flat().map((s) => s.signalId), ...[...poa.values()].flat()];
    const series = await readRollupSeries(
      this.ctx.db,
      this.ctx.dialect,
      '5m',
      ids.map((id) => ({ id, from, counter: false })),
      'avg',
      to,
    );
    return eligible.map((list) => {
      const { deviceId, plantId } = list[0]!;
      const strings = new Map<
        number,
        { n: number; current: Map<number, number>; voltage?: Map<number, number> }
      >();
      const currentSignal = new Map<number, number>();
      let dcVoltage: Map<number, number> | undefined;
      let power: Map<number, number> | undefined;
      for (const s of list) {
        const parsed = stringSignal(s.key);
        if (parsed) {
          const entry = strings.get(parsed.n) ?? { n: parsed.n, current: new Map<number, number>() };
          strings.set(parsed.n, entry);
          if (parsed.kind === 'current') {
            entry.current = toMap(series.get(s.signalId));
            currentSignal.set(parsed.n, s.signalId);
          } else entry.voltage = toMap(series.get(s.signalId));
        } else if (s.key === 'dc_voltage') dcVoltage = toMap(series.get(s.signalId));
        else if (s.key === 'ac_power') power = toMap(series.get(s.signalId));
      }
      const sensors = (poa.get(plantId) ?? []).map((id) => toMap(series.get(id)));
      const input: InverterStrings = {
        strings: [...strings.values()].filter((s) => currentSignal.has(s.n)).sort((a, b) => a.n - b.n),
        ...(dcVoltage ? { dcVoltage } : {}),
        ...(sensors.length ? { irradiance: meanOf(sensors) } : {}),
        ...(power ? { power } : {}),
        ratedKw: rated.get(deviceId) ?? null,
      };
      return { deviceId, plantId, input, currentSignal };
    });
  }

  /** GET /api/devices/{id}/strings. */
  async strings(actor: Actor, id: number, query: DeviceStringsQuery): Promise<DeviceStringsAnswer> {
    const inverter = found(await repo.findInverter(this.ctx.db, scopeOf(actor), id));
    const date = query.date ?? localDate(this.ctx.now(), inverter.timeZone);
    const start = dayStart(date, inverter.timeZone);
    const end = dayStart(nextDate(date), inverter.timeZone);
    const step = STRING_SERIES_MINUTES * 60_000;
    const intervals: number[] = [];
    for (let t = start; t < end; t += step) intervals.push(t);
    // The day before is judged too: a fault that began yesterday is one fault, from its start.
    // The plant's other inverters are read as well: the plant-wide median of strings like these.
    const plantRead = await this.read(
      await repo.inverterSignals(this.ctx.db, undefined, inverter.plantId),
      start - DAY_MS,
      end,
    );
    const read = plantRead.find((inv) => inv.deviceId === id);
    const plant = read ? judgePeers(plantRead).get(id) : undefined;
    const answer: DeviceStringsAnswer = {
      device_id: id,
      time_zone: inverter.timeZone,
      date,
      interval_minutes: STRING_SERIES_MINUTES,
      intervals: intervals.map((t) => new Date(t).toISOString()),
      ratio_threshold: STRING_HEALTH_DEFAULTS.ratioThreshold,
      sustain_minutes: STRING_HEALTH_DEFAULTS.sustainMs / 60_000,
      strings: [],
      faults: [],
      plant_peers: plant
        ? {
            inverters: plant.peers.length,
            strings: plant.peers.reduce((sum, inv) => sum + inv.input.strings.length, 0),
          }
        : null,
      plant_faults: [],
    };
    if (!read) return answer;
    const judged = judgeStrings(read.input, { intervalMs: FIVE_MIN });
    const slot = (t: number) => Math.floor((t - start) / step);
    for (const s of read.input.strings) {
      const current = intervals.map(() => [0, 0]);
      const ratio = intervals.map(() => [0, 0]);
      const add = (acc: number[][], t: number, v: number) => {
        const i = slot(t);
        if (t < start || i >= intervals.length) return;
        acc[i]![0]! += v;
        acc[i]![1]! += 1;
      };
      for (const [t, v] of s.current) add(current, t, v);
      for (const [t, v] of judged.ratios.get(s.n) ?? []) add(ratio, t, v);
      const plantRatio = intervals.map(() => [0, 0]);
      for (const [t, v] of plant?.result.ratios.get(s.n) ?? []) add(plantRatio, t, v);
      const mean = (acc: number[][]) => acc.map(([sum, n]) => (n ? round(sum! / n, 3) : null));
      answer.strings.push({
        n: s.n,
        signal_id: read.currentSignal.get(s.n)!,
        current_a: mean(current),
        ratio: mean(ratio),
        plant_ratio: mean(plantRatio),
      });
    }
    const ofDay = (faults: readonly EngineFault[]) =>
      faults
        .filter((f) => f.from < end && (f.to === null || f.to > start))
        .map((f) => ({
          n: f.n,
          from: new Date(f.from).toISOString(),
          to: f.to === null ? null : new Date(f.to).toISOString(),
          ratio: round(f.ratio, 3),
          energy_lost_kwh: f.energyKwh === null ? null : round(f.energyKwh, 2),
        }));
    answer.faults = ofDay(judged.faults);
    answer.plant_faults = ofDay(plant?.result.faults ?? []);
    return answer;
  }

  /**
   * Judges every inverter's strings over the last day and hands the open faults to the alarm engine,
   * which raises those not raised yet and clears those that recovered (at their recovery) or fell out of
   * the window. Answers how many inverters were judged and how many faults are open.
   */
  async evaluate(
    alarms: Pick<AppContext['alarmEngine'], 'reconcile'>,
    now = this.ctx.now(),
  ): Promise<{ inverters: number; open: number }> {
    const read = await this.read(
      await repo.inverterSignals(this.ctx.db),
      now - STRING_HEALTH_LOOKBACK_MS,
      now,
    );
    const raises: RaiseRequest[] = [];
    const clearedAt = new Map<string, number>();
    const peers = judgePeers(read);
    for (const inv of read) {
      const { faults } = judgeStrings(inv.input, { intervalMs: FIVE_MIN });
      const openOwn = new Set<number>();
      for (const f of faults) {
        const key = `${STRING_ALARM_PREFIX}${inv.deviceId}:${f.n}`;
        if (f.to !== null) clearedAt.set(key, f.to);
        else {
          raises.push(faultRaise(inv, f, key));
          openOwn.add(f.n);
        }
      }
      const plantFaults = peers.get(inv.deviceId)?.result.faults ?? [];
      // A string low against the plant's peers and not against its own inverter: the inverter's median fell
      // with it. Those strings make one alarm on the inverter; a string its own inverter already judged
      // faulty keeps its string alarm only.
      const open = plantFaults.filter((f) => f.to === null && !openOwn.has(f.n));
      const key = `${PLANT_STRINGS_ALARM_PREFIX}${inv.deviceId}`;
      if (open.length > 0) raises.push(plantFaultRaise(inv, open, key));
      else {
        const recovered = plantFaults.flatMap((f) => (f.to === null ? [] : [f.to]));
        if (recovered.length > 0) clearedAt.set(key, Math.max(...recovered));
      }
    }
    // Every string alarm not open now clears: a recovered string at its recovery, any other at `now` (its
    // fault left the window, its data having stopped for a day, or the inverter lost its string signals).
    await alarms.reconcile({
      prefixes: [STRING_ALARM_PREFIX, PLANT_STRINGS_ALARM_PREFIX],
      raises,
      clearedAt,
      now,
    });
    return { inverters: read.length, open: raises.length };
  }
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

function faultRaise(inv: ReadInverter, f: EngineFault, key: string): RaiseRequest {
  return {
    key,
    plant_id: inv.plantId,
    device_id: inv.deviceId,
    tag_id: inv.currentSignal.get(f.n) ?? null,
    source: 'performance',
    rule_id: null,
    priority_id: ALARM_PRIORITY.medium,
    message: f.energyKwh === null ? STRING_FAULT_NO_VOLTAGE_MESSAGE : STRING_FAULT_MESSAGE,
    message_params: {
      string: f.n,
      ratio: Math.round(f.ratio * 100),
      energy: f.energyKwh === null ? null : round(f.energyKwh, 1),
    },
    at: f.from,
  };
}

/** One alarm for the inverter's strings that are low against the plant's peers: how many, how low, since when. */
function plantFaultRaise(inv: ReadInverter, open: readonly EngineFault[], key: string): RaiseRequest {
  const energies = open.flatMap((f) => (f.energyKwh === null ? [] : [f.energyKwh]));
  return {
    key,
    plant_id: inv.plantId,
    device_id: inv.deviceId,
    tag_id: null,
    source: 'performance',
    rule_id: null,
    priority_id: ALARM_PRIORITY.medium,
    message: energies.length ? PLANT_STRINGS_FAULT_MESSAGE : PLANT_STRINGS_FAULT_NO_VOLTAGE_MESSAGE,
    message_params: {
      count: open.length,
      total: inv.input.strings.length,
      ratio: Math.round(median(open.map((f) => f.ratio)) * 100),
      energy: energies.length
        ? round(
            energies.reduce((a, b) => a + b, 0),
            1,
          )
        : null,
    },
    at: Math.min(...open.map((f) => f.from)),
  };
}
