/**
 * A Huawei SUN2000 inverter over Modbus TCP: the registers of Huawei's "SUN2000 Modbus Interface
 * Definitions" (32000–32119: status, alarm bit fields 32008–32010, PV inputs from 32016, powers, internal
 * temperature, device status 32089, energy counters), laid out and scaled by the shipped register template
 * (`@solar/shared` REGISTER_TEMPLATES['huawei-sun2000']) and served by the template server, so it is a device
 * that does not speak SunSpec.
 * Values come from a virtual plant's inverter: the same physics the SunSpec server shows, with the
 * simulator's SunSpec-style state and event bits turned into Huawei's device status and alarm bits.
 */
import { SUNSPEC_INVERTER_EVENT1_BITS, SUNSPEC_INVERTER_STATES } from '@solar/shared';
import type { VirtualPlant } from '../plant';
import type { SunSpecUnitMapping } from './drive';
import { startTemplateServer, type TemplateServer, type TemplateServerOptions } from './template-server';

/** PV inputs the simulated inverter reports: one string on each of its two MPPT inputs. */
export const HUAWEI_SIMULATED_STRINGS = 2;

/** Huawei device status (register 32089) values the simulator uses (Huawei's status table). */
export const HUAWEI_DEVICE_STATUS = {
  STANDBY_NO_IRRADIATION: 0xa000,
  STANDBY_DETECTING_IRRADIATION: 0x0002,
  STARTING: 0x0100,
  ON_GRID: 0x0200,
  ON_GRID_POWER_LIMITED: 0x0201,
  SHUTDOWN_FAULT: 0x0300,
  SHUTDOWN_COMMAND: 0x0301,
} as const;

/** Huawei's device status for a SunSpec operating state St (the simulator's inverter state). */
export function huaweiDeviceStatus(st: number): number {
  switch (st) {
    case SUNSPEC_INVERTER_STATES.MPPT:
      return HUAWEI_DEVICE_STATUS.ON_GRID;
    case SUNSPEC_INVERTER_STATES.THROTTLED:
      return HUAWEI_DEVICE_STATUS.ON_GRID_POWER_LIMITED;
    case SUNSPEC_INVERTER_STATES.FAULT:
      return HUAWEI_DEVICE_STATUS.SHUTDOWN_FAULT;
    case SUNSPEC_INVERTER_STATES.STANDBY:
      return HUAWEI_DEVICE_STATUS.STANDBY_DETECTING_IRRADIATION;
    case SUNSPEC_INVERTER_STATES.STARTING:
      return HUAWEI_DEVICE_STATUS.STARTING;
    case SUNSPEC_INVERTER_STATES.OFF:
    case SUNSPEC_INVERTER_STATES.SHUTTING_DOWN:
      return HUAWEI_DEVICE_STATUS.SHUTDOWN_COMMAND;
    default:
      return HUAWEI_DEVICE_STATUS.STANDBY_NO_IRRADIATION;
  }
}

/** [register key, bit] of the Huawei alarm each SunSpec Evt1 event shows as (Huawei's alarm table). */
const EVENT_TO_ALARM: ReadonlyArray<[number, string, number]> = [
  [SUNSPEC_INVERTER_EVENT1_BITS.GRID_DISCONNECT, 'huawei_alarm_1', 7], // 2032 Grid Loss
  [SUNSPEC_INVERTER_EVENT1_BITS.DC_OVER_VOLT, 'huawei_alarm_1', 0], // 2001 High String Input Voltage
  [SUNSPEC_INVERTER_EVENT1_BITS.AC_UNDER_VOLT, 'huawei_alarm_1', 8], // 2033 Grid Undervoltage
  [SUNSPEC_INVERTER_EVENT1_BITS.AC_OVER_VOLT, 'huawei_alarm_1', 9], // 2034 Grid Overvoltage
  [SUNSPEC_INVERTER_EVENT1_BITS.OVER_FREQUENCY, 'huawei_alarm_1', 11], // 2036 Grid Overfrequency
  [SUNSPEC_INVERTER_EVENT1_BITS.UNDER_FREQUENCY, 'huawei_alarm_1', 12], // 2037 Grid Underfrequency
  [SUNSPEC_INVERTER_EVENT1_BITS.GROUND_FAULT, 'huawei_alarm_2', 2], // 2062 Low Insulation Resistance
  [SUNSPEC_INVERTER_EVENT1_BITS.OVER_TEMP, 'huawei_alarm_2', 3], // 2063 Overtemperature
  [SUNSPEC_INVERTER_EVENT1_BITS.HW_TEST_FAILURE, 'huawei_alarm_2', 4], // 2064 Device Fault
  [SUNSPEC_INVERTER_EVENT1_BITS.BLOWN_STRING_FUSE, 'huawei_alarm_3', 6], // 2015 PV String Loss
];

/** Huawei's three alarm registers for a SunSpec Evt1 value; a fault state with no event is 2064 Device Fault. */
export function huaweiAlarmWords(eventBits: number, st: number): Record<string, number> {
  const words: Record<string, number> = { huawei_alarm_1: 0, huawei_alarm_2: 0, huawei_alarm_3: 0 };
  const bits = Number.isFinite(eventBits) && eventBits > 0 ? Math.trunc(eventBits) : 0;
  for (const [event, key, bit] of EVENT_TO_ALARM) {
    if (Math.floor(bits / 2 ** event) % 2 === 1) words[key] = words[key]! | (1 << bit);
  }
  const any = Object.values(words).some((w) => w !== 0);
  if (st === SUNSPEC_INVERTER_STATES.FAULT && !any) words.huawei_alarm_2 = 1 << 4;
  return words;
}

/** The Huawei registers' values, by template signal key, of an inverter's readings (our keys and units). */
export function huaweiValuesOf(readings: Readonly<Record<string, number>>): Record<string, number> {
  const n = (key: string) => readings[key] ?? Number.NaN;
  const st = n('status_code');
  const values: Record<string, number> = {
    ac_power: n('ac_power'),
    dc_power: n('dc_power'),
    ac_voltage: n('ac_voltage'),
    ac_current: n('ac_current'),
    reactive_power: n('reactive_power'),
    power_factor: n('power_factor'),
    frequency: n('frequency'),
    efficiency: n('efficiency'),
    temperature: n('temperature'),
    insulation_resistance: 3,
    total_energy: n('total_energy'),
    daily_energy: n('daily_energy'),
    huawei_device_status: huaweiDeviceStatus(st),
    ...huaweiAlarmWords(n('event_bits'), st),
  };
  for (let i = 1; i <= HUAWEI_SIMULATED_STRINGS; i++) {
    values[`string${i}_dc_voltage`] = n(`mppt${i}_dc_voltage`);
    values[`string${i}_dc_current`] = n(`mppt${i}_dc_current`);
  }
  return values;
}

/** A Huawei SUN2000 server: a template server of the shipped Huawei map. */
export type HuaweiServer = TemplateServer;

/**
 * What a SUN2000 answers beyond its template: every read in the running-information block 32000–32119
 * succeeds (an unused register reads 0), and it has holding registers only, so function 04 is refused.
 */
const HUAWEI_REGISTER_BLOCKS: TemplateServerOptions['registerBlocks'] = {
  holding: { first: 32000, last: 32119 },
  input: null,
};

/**
 * Starts a Modbus server answering as Huawei SUN2000 inverters at the given unit ids (holding registers
 * only): over Modbus TCP by default, or as RTU frames over TCP or on a serial port (the SUN2000's RS485
 * port, or a SmartLogger's), with the same transports as the SunSpec server.
 */
export function startHuaweiServer(
  options: Omit<TemplateServerOptions, 'templateId' | 'registerBlocks'>,
): Promise<HuaweiServer> {
  return startTemplateServer({
    ...options,
    templateId: 'huawei-sun2000',
    registerBlocks: HUAWEI_REGISTER_BLOCKS,
  });
}

/** Samples `plant` every `intervalMs` and shows each mapped inverter on its Huawei unit. */
export function driveHuaweiFromPlant(
  server: HuaweiServer,
  plant: VirtualPlant,
  mapping: readonly SunSpecUnitMapping[],
  intervalMs: number,
  clock: () => number = Date.now,
): { update(): void; stop(): void } {
  const update = () => {
    const samples = plant.sample(clock());
    for (const { unitId, deviceId } of mapping) {
      const sample = samples.find((s) => s.deviceId === deviceId);
      if (!sample || sample.type !== 'inverter') {
        throw new RangeError(`Plant ${plant.definition.plantId} has no inverter ${deviceId}`);
      }
      server.setOnline(unitId, sample.online);
      server.setValues(unitId, huaweiValuesOf(sample.readings));
    }
  };
  update();
  const timer = setInterval(update, intervalMs);
  return { update, stop: () => clearInterval(timer) };
}
