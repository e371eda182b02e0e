/**
 * A SunSpec device simulator over Modbus TCP: per unit id, the 'SunS' marker at 40000, model 1 (common),
 * the unit's main models (103 three-phase inverter with 160 MPPT, 203 wye meter, or 307 base met with
 * 302 irradiance and 303 back-of-module temperature, one sensor each), then
 * the end marker 0xFFFF/0 (SunSpec Modbus, "Device Modbus map"). Values are set in engineering units by
 * point name and encoded with the shared codec and the unit's fixed scale factors.
 */
import {
  SUNSPEC_INVERTER_STATES,
  SUNSPEC_MODELS,
  SUNSPEC_TEMPLATES,
  encodeRegisters,
  encodeString,
  sunspecChainLayout,
  sunspecRegisterImage,
  unapplyScale,
} from '@solar/shared';
import type { SunSpecModel, SunSpecPoint, SunSpecPointType } from '@solar/shared';
import {
  FUNCTION_READ_HOLDING_REGISTERS,
  FUNCTION_READ_INPUT_REGISTERS,
  MODBUS_EXCEPTIONS,
  exceptionPdu,
  readRegistersAnswer,
} from './frame';
import { serveModbus, type ModbusTransport } from './serve';
import type { ModbusHandler } from './tcp-server';

export interface SunSpecUnit {
  unitId: number;
  kind: 'inverter' | 'meter' | 'weather';
  manufacturer: string;
  model: string;
  serial: string;
  ratedPowerW?: number;
}

export interface SunSpecServer {
  /** The TCP port; 0 on a serial port. */
  port: number;
  /**
   * Set live values by SunSpec point name of the unit's main models, e.g. { W: 51234, WH: 123456789, St: 4,
   * Evt1: 0 } (engineering units; the server applies scale factors); a repeating block's point is named by
   * block and 1-based instance: 'module[2].DCW', 'repeating[1].POAI' (302), 'temp[1].TmpBOM' (303).
   */
  setValues(unitId: number, values: Record<string, number>): void;
  /** false: the unit stops answering (requests for it get no reply at all), to test communication loss. */
  setOnline(unitId: number, online: boolean): void;
  close(): Promise<void>;
}

/** MPPT inputs the simulated inverters report in model 160. */
export const SIMULATED_MPPT_INPUTS = 2;

const TEMPLATE_OF = {
  inverter: SUNSPEC_TEMPLATES['sunspec-inverter'],
  meter: SUNSPEC_TEMPLATES['sunspec-meter'],
  weather: SUNSPEC_TEMPLATES['sunspec-weather'],
} as const;

/** The smallest scale factor (≥ `min`) that fits `max` into a register of `limit`. */
function fitScaleFactor(max: number, limit: number, min: number): number {
  let sf = min;
  while (max / 10 ** sf > limit) sf++;
  return sf;
}

/** Scale factors chosen once per unit from its rating, as a real device has them fixed in firmware. */
export function sunspecScaleFactors(unit: SunSpecUnit): Record<string, number> {
  if (unit.kind === 'inverter') {
    const ratedW = unit.ratedPowerW ?? 100_000;
    const w = fitScaleFactor(ratedW * 1.2, 32_767, -1);
    const amps = ratedW / (3 * 200);
    return {
      A_SF: fitScaleFactor(amps, 65_535, -2),
      V_SF: -1,
      W_SF: w,
      Hz_SF: -2,
      VA_SF: w,
      VAr_SF: w,
      PF_SF: -1,
      WH_SF: ratedW >= 10_000 ? 1 : 0,
      DCA_SF: fitScaleFactor(amps * 2, 65_535, -2),
      DCV_SF: -1,
      DCW_SF: w,
      Tmp_SF: -1,
      DCWH_SF: ratedW >= 10_000 ? 1 : 0,
    };
  }
  if (unit.kind === 'meter') {
    const ratedW = unit.ratedPowerW ?? 1_000_000;
    const w = fitScaleFactor(ratedW * 1.2, 32_767, -1);
    return {
      A_SF: fitScaleFactor(ratedW / (3 * 200), 32_767, -2),
      V_SF: -1,
      Hz_SF: -2,
      W_SF: w,
      VA_SF: w,
      VAR_SF: w,
      PF_SF: -1,
      TotWh_SF: ratedW >= 200_000 ? 2 : 1,
      TotVAh_SF: ratedW >= 200_000 ? 2 : 1,
      TotVArh_SF: ratedW >= 200_000 ? 2 : 1,
    };
  }
  return {};
}

const INT_LIMITS: Partial<Record<SunSpecPointType, [number, number]>> = {
  int16: [-32_767, 32_767],
  uint16: [0, 65_534],
  enum16: [0, 65_534],
  count: [0, 65_534],
  bitfield16: [0, 65_534],
  int32: [-2_147_483_647, 2_147_483_647],
  uint32: [0, 4_294_967_294],
  enum32: [0, 4_294_967_294],
  bitfield32: [0, 4_294_967_294],
};
const WRAP: Partial<Record<SunSpecPointType, number>> = { acc16: 2 ** 16, acc32: 2 ** 32 };

/** A raw value made to fit its type: accumulators roll over (as the standard says they do), others saturate short of the sentinel. */
function fitRaw(raw: number, type: SunSpecPointType): number {
  const wrap = WRAP[type];
  if (wrap !== undefined) return ((raw % wrap) + wrap) % wrap;
  const limits = INT_LIMITS[type];
  return limits ? Math.min(Math.max(raw, limits[0]), limits[1]) : raw;
}

interface UnitState {
  unit: SunSpecUnit;
  online: boolean;
  image: Map<number, number>;
  /** Point name → where it lives and how to scale it. */
  points: Map<string, { address: number; point: SunSpecPoint }>;
  scaleFactors: Record<string, number>;
}

function buildUnit(unit: SunSpecUnit): UnitState {
  const template = TEMPLATE_OF[unit.kind];
  const layout = sunspecChainLayout(template.models, { mpptInputs: SIMULATED_MPPT_INPUTS });
  const image = sunspecRegisterImage(layout);
  const scaleFactors = sunspecScaleFactors(unit);
  const points = new Map<string, { address: number; point: SunSpecPoint }>();
  const put = (address: number, registers: readonly number[]) =>
    registers.forEach((r, i) => image.set(address + i, r));
  for (const location of layout.models) {
    const model: SunSpecModel | undefined = SUNSPEC_MODELS[location.id];
    if (!model) continue;
    for (const point of model.points) {
      const address = location.address + point.offset;
      if (point.type === 'sunssf' && scaleFactors[point.name] !== undefined) {
        put(address, encodeRegisters(scaleFactors[point.name]!, 'sunssf'));
      }
      // Model 1's points and the main model's share no names that matter; the main model wins.
      if (location.id !== 1 || !points.has(point.name)) points.set(point.name, { address, point });
    }
    if (model.repeating) {
      const blocks = (location.length - model.fixedLength) / model.repeating.length;
      for (let i = 0; i < blocks; i++) {
        const blockAddress = location.address + 2 + model.fixedLength + i * model.repeating.length;
        for (const point of model.repeating.points) {
          points.set(`${model.repeating.name}[${i + 1}].${point.name}`, {
            address: blockAddress + point.offset,
            point,
          });
        }
        const idStr = model.repeating.points.find((p) => p.name === 'IDStr');
        if (idStr) put(blockAddress + idStr.offset, encodeString(`MPPT ${i + 1}`, idStr.size));
      }
    }
  }
  const common = SUNSPEC_MODELS[1]!;
  const commonAddress = layout.models[0]!.address;
  const text = (name: string, value: string) => {
    const p = common.points.find((x) => x.name === name)!;
    put(commonAddress + p.offset, encodeString(value.slice(0, p.size * 2), p.size));
  };
  text('Mn', unit.manufacturer);
  text('Md', unit.model);
  text('Opt', 'solar-simulator');
  text('Vr', '1.0.0');
  text('SN', unit.serial);
  put(commonAddress + common.points.find((p) => p.name === 'DA')!.offset, [unit.unitId]);
  const state: UnitState = { unit, online: true, image, points, scaleFactors };
  if (unit.kind === 'inverter') {
    setUnitValues(state, { St: SUNSPEC_INVERTER_STATES.SLEEPING, Evt1: 0, Evt2: 0 });
  } else if (unit.kind === 'meter') {
    setUnitValues(state, { Evt: 0 });
  }
  return state;
}

function setUnitValues(state: UnitState, values: Record<string, number>): void {
  for (const [name, value] of Object.entries(values)) {
    const entry = state.points.get(name);
    if (!entry || entry.point.name === 'ID' || entry.point.name === 'L') {
      throw new RangeError(`Unit ${state.unit.unitId} (${state.unit.kind}) has no settable point ${name}`);
    }
    const { point, address } = entry;
    if (point.type === 'sunssf') throw new RangeError(`${name} is a scale factor; the server fixes those`);
    if (point.type === 'string') throw new RangeError(`${name} is a string`);
    let raw: number | null = null;
    if (Number.isFinite(value)) {
      const sf =
        typeof point.sf === 'number'
          ? point.sf
          : point.sf === undefined
            ? 0
            : (state.scaleFactors[point.sf] ?? 0);
      raw =
        point.type === 'float32' || point.type === 'float64'
          ? value
          : unapplyScale(value, { scaleFactor: sf });
      if (raw !== null && point.type !== 'float32' && point.type !== 'float64') raw = fitRaw(raw, point.type);
    }
    encodeRegisters(raw, point.type).forEach((r, i) => state.image.set(address + i, r));
  }
}

/** How the units are served (serve.ts): Modbus TCP by default. */
export type SunSpecTransport = ModbusTransport;

/** Starts a Modbus server that answers as the given SunSpec units, all on one port or serial line. */
export async function startSunSpecServer(options: {
  host?: string;
  port?: number;
  units: SunSpecUnit[];
  transport?: SunSpecTransport;
}): Promise<SunSpecServer> {
  const units = new Map<number, UnitState>();
  for (const unit of options.units) {
    if (!Number.isInteger(unit.unitId) || unit.unitId < 0 || unit.unitId > 255) {
      throw new RangeError(`Unit id ${unit.unitId} is outside 0…255`);
    }
    if (units.has(unit.unitId)) throw new RangeError(`Unit id ${unit.unitId} is used twice`);
    units.set(unit.unitId, buildUnit(unit));
  }
  const unitOf = (unitId: number) => {
    const state = units.get(unitId);
    if (!state) throw new RangeError(`No unit ${unitId}`);
    return state;
  };

  // A gateway answers for a unit it does not know with exception 0x0B (Modbus Application Protocol §7);
  // on a serial line a slave that is not there simply does not answer.
  const unknownUnit = options.transport?.kind === 'rtu-serial' ? 'silent' : 'exception';
  const handler: ModbusHandler = (unitId, pdu) => {
    const state = units.get(unitId);
    const functionCode = pdu.readUInt8(0);
    if (!state) {
      return unknownUnit === 'silent'
        ? null
        : exceptionPdu(functionCode, MODBUS_EXCEPTIONS.GATEWAY_TARGET_FAILED);
    }
    if (!state.online) return null;
    if (functionCode !== FUNCTION_READ_HOLDING_REGISTERS && functionCode !== FUNCTION_READ_INPUT_REGISTERS) {
      return exceptionPdu(functionCode, MODBUS_EXCEPTIONS.ILLEGAL_FUNCTION);
    }
    // SunSpec devices keep their map in holding registers; input registers mirror it here.
    return readRegistersAnswer(functionCode, pdu, state.image);
  };

  const transport = options.transport ?? { kind: 'tcp' };
  const server = await serveModbus(transport, options, handler);

  return {
    port: server.port,
    setValues: (unitId, values) => setUnitValues(unitOf(unitId), values),
    setOnline: (unitId, online) => {
      unitOf(unitId).online = online;
    },
    close: () => server.close(),
  };
}
