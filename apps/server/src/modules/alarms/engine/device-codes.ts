import { ALARM_PRIORITY, type AlarmPriority } from '@solar/shared';

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
  priority: AlarmPriority;
}

/** Status codes that raise an alarm while the inverter reports them. */
export const STATUS_ALARMS: ReadonlyMap<number, CodeAlarm> = new Map([
  [SUNSPEC_ST_FAULT, { message: 'alarms.msg.inverterFault', priority: ALARM_PRIORITY.high }],
]);

/** SunSpec Evt1 bits (model 101-103) that raise an alarm while set. */
export const EVENT_BIT_ALARMS: ReadonlyMap<number, CodeAlarm> = new Map([
  [0, { message: 'alarms.msg.groundFault', priority: ALARM_PRIORITY.dangerous }],
  [1, { message: 'alarms.msg.dcOverVoltage', priority: ALARM_PRIORITY.high }],
  [2, { message: 'alarms.msg.acDisconnect', priority: ALARM_PRIORITY.medium }],
  [3, { message: 'alarms.msg.dcDisconnect', priority: ALARM_PRIORITY.medium }],
  [4, { message: 'alarms.msg.gridDisconnect', priority: ALARM_PRIORITY.high }],
  [5, { message: 'alarms.msg.cabinetOpen', priority: ALARM_PRIORITY.medium }],
  [6, { message: 'alarms.msg.manualShutdown', priority: ALARM_PRIORITY.low }],
  [7, { message: 'alarms.msg.overTemperature', priority: ALARM_PRIORITY.high }],
  [8, { message: 'alarms.msg.overFrequency', priority: ALARM_PRIORITY.medium }],
  [9, { message: 'alarms.msg.underFrequency', priority: ALARM_PRIORITY.medium }],
  [10, { message: 'alarms.msg.acOverVoltage', priority: ALARM_PRIORITY.medium }],
  [11, { message: 'alarms.msg.acUnderVoltage', priority: ALARM_PRIORITY.medium }],
  [12, { message: 'alarms.msg.blownStringFuse', priority: ALARM_PRIORITY.high }],
  [13, { message: 'alarms.msg.underTemperature', priority: ALARM_PRIORITY.low }],
  [14, { message: 'alarms.msg.memoryLoss', priority: ALARM_PRIORITY.medium }],
  [15, { message: 'alarms.msg.hardwareTestFailure', priority: ALARM_PRIORITY.high }],
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
  edgeAgentSilent: 'alarms.msg.edgeAgentSilent',
  plantNoProduction: 'alarms.msg.plantNoProduction',
  underperformance: 'alarms.msg.underperformance',
  /** The plant's meter sees no grid at the connection point (its `grid_available` is 0). */
  gridOutage: 'alarms.msg.gridOutage',
} as const;
