/** Feeds a SunSpec server from a virtual plant: each mapped unit shows one plant device's live readings. */
import type { DeviceSample, VirtualPlant } from '../plant';
import { SIMULATED_MPPT_INPUTS } from './sunspec-server';
import type { SunSpecServer } from './sunspec-server';

export interface SunSpecUnitMapping {
  unitId: number;
  deviceId: number | string;
}

export interface SunSpecDriver {
  /** Samples the plant now and updates every unit (also what each interval does). */
  update(): void;
  stop(): void;
}

const SQRT3 = Math.sqrt(3);

/** SunSpec point values (engineering units of the standard: W, Wh, V, A, Pct…) of one device sample. */
export function sunspecValuesOf(sample: DeviceSample): Record<string, number> | null {
  const r = sample.readings;
  const n = (key: string) => r[key] ?? Number.NaN;
  if (sample.type === 'inverter') {
    const v = n('ac_voltage');
    const values: Record<string, number> = {
      A: n('ac_current'),
      AphA: n('ac_current'),
      AphB: n('ac_current'),
      AphC: n('ac_current'),
      PhVphA: v,
      PhVphB: v - 0.4,
      PhVphC: v + 0.3,
      PPVphAB: v * SQRT3,
      PPVphBC: v * SQRT3,
      PPVphCA: v * SQRT3,
      W: n('ac_power') * 1000,
      Hz: n('frequency'),
      VA: n('apparent_power') * 1000,
      VAr: n('reactive_power') * 1000,
      PF: n('power_factor') * 100,
      WH: n('total_energy') * 1000,
      DCA: n('dc_current'),
      DCV: n('dc_voltage'),
      DCW: n('dc_power') * 1000,
      TmpCab: n('temperature'),
      TmpSnk: n('heat_sink_temperature'),
      St: n('status_code'),
      Evt1: n('event_bits'),
      Evt2: 0,
    };
    for (let i = 1; i <= SIMULATED_MPPT_INPUTS; i++) {
      values[`module[${i}].DCA`] = n(`mppt${i}_dc_current`);
      values[`module[${i}].DCV`] = n(`mppt${i}_dc_voltage`);
      values[`module[${i}].DCW`] = n(`mppt${i}_dc_power`) * 1000;
      values[`module[${i}].DCWH`] = n(`mppt${i}_dc_energy`) * 1000;
      values[`module[${i}].Tmp`] = n('temperature');
    }
    return values;
  }
  if (sample.type === 'meter') {
    // Positive W is export here, as our active_power signal (and the shared template's factor) has it.
    const v = n('voltage');
    const w = n('active_power') * 1000;
    return {
      A: n('current'),
      AphA: n('current'),
      AphB: n('current'),
      AphC: n('current'),
      PhV: v,
      PhVphA: v,
      PhVphB: v,
      PhVphC: v,
      PPV: v * SQRT3,
      PhVphAB: v * SQRT3,
      PhVphBC: v * SQRT3,
      PhVphCA: v * SQRT3,
      Hz: n('frequency'),
      W: w,
      WphA: w / 3,
      WphB: w / 3,
      WphC: w / 3,
      VA: n('apparent_power') * 1000,
      VAR: n('reactive_power') * 1000,
      PF: n('power_factor') * 100,
      TotWhExp: n('export_energy') * 1000,
      TotWhImp: n('import_energy') * 1000,
      Evt: 0,
    };
  }
  if (sample.type === 'weather_station') {
    // 307 for the air, the first sensor set of 302 and the first sensor of 303 for the array.
    return {
      TmpAmb: n('ambient_temperature'),
      WndSpd: n('wind_speed'),
      RH: 45,
      Pres: 1013,
      'repeating[1].GHI': n('ghi'),
      'repeating[1].POAI': n('irradiance'),
      'temp[1].TmpBOM': n('module_temperature'),
    };
  }
  return null;
}

/** Samples `plant` every `intervalMs` and shows each mapped device on its unit; communication loss takes the unit offline. */
export function driveSunSpecFromPlant(
  server: SunSpecServer,
  plant: VirtualPlant,
  mapping: readonly SunSpecUnitMapping[],
  intervalMs: number,
  clock: () => number = Date.now,
): SunSpecDriver {
  const update = () => {
    const samples = plant.sample(clock());
    for (const { unitId, deviceId } of mapping) {
      const sample = samples.find((s) => s.deviceId === deviceId);
      if (!sample) throw new RangeError(`Plant ${plant.definition.plantId} has no device ${deviceId}`);
      server.setOnline(unitId, sample.online);
      const values = sunspecValuesOf(sample);
      if (values) server.setValues(unitId, values);
    }
  };
  update();
  const timer = setInterval(update, intervalMs);
  return { update, stop: () => clearInterval(timer) };
}
