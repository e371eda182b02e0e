/**
 * Inverter status and event codes → alarm texts and priorities. SunSpec inverter models 101-103
 * (https://sunspec.org, "Inverter Models" SunSpec-Information-Models): `St` (our signal `status_code`)
 * 7 = FAULT; `Evt1` (our signal `event_bits`) bit i set = event i.
 */

/** SunSpec St value of an inverter in fault. */
export const SUNSPEC_ST_FAULT = 7;

export interface CodeAlarm {
  /** i18n key under alarms.msg. */
  message: string;
  priority: 1 | 2 | 3 | 4;
}

/** Status codes that raise an alarm while the inverter reports them. */
export const STATUS_ALARMS: ReadonlyMap<number, CodeAlarm> = new Map([
  [SUNSPEC_ST_FAULT, { message: 'alarms.msg.inverterFault', priority: 3 }],
]);

/** SunSpec Evt1 bits (model 101-103) that raise an alarm while set. */
export const EVENT_BIT_ALARMS: ReadonlyMap<number, CodeAlarm> = new Map([
  [0, { message: 'alarms.msg.groundFault', priority: 4 }],
  [1, { message: 'alarms.msg.dcOverVoltage', priority: 3 }],
  [2, { message: 'alarms.msg.acDisconnect', priority: 2 }],
  [3, { message: 'alarms.msg.dcDisconnect', priority: 2 }],
  [4, { message: 'alarms.msg.gridDisconnect', priority: 3 }],
  [5, { message: 'alarms.msg.cabinetOpen', priority: 2 }],
  [6, { message: 'alarms.msg.manualShutdown', priority: 1 }],
  [7, { message: 'alarms.msg.overTemperature', priority: 3 }],
  [8, { message: 'alarms.msg.overFrequency', priority: 2 }],
  [9, { message: 'alarms.msg.underFrequency', priority: 2 }],
  [10, { message: 'alarms.msg.acOverVoltage', priority: 2 }],
  [11, { message: 'alarms.msg.acUnderVoltage', priority: 2 }],
  [12, { message: 'alarms.msg.blownStringFuse', priority: 3 }],
  [13, { message: 'alarms.msg.underTemperature', priority: 1 }],
  [14, { message: 'alarms.msg.memoryLoss', priority: 2 }],
  [15, { message: 'alarms.msg.hardwareTestFailure', priority: 3 }],
]);

/** The alarm-raising event bits set in a SunSpec Evt1 value. */
export function eventBitsSet(value: number): number[] {
  const bits: number[] = [];
  if (!Number.isFinite(value) || value < 0) return bits;
  const v = Math.trunc(value);
  for (const bit of EVENT_BIT_ALARMS.keys()) if (Math.floor(v / 2 ** bit) % 2 === 1) bits.push(bit);
  return bits;
}

/** Other messages the engine raises. */
export const MSG = {
  custom: 'alarms.msg.custom',
  commLoss: 'alarms.msg.commLoss',
  plantNoProduction: 'alarms.msg.plantNoProduction',
  underperformance: 'alarms.msg.underperformance',
} as const;
