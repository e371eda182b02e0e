import type { ModbusCollectorHealth, MqttCollectorHealth } from '@solar/shared';

/**
 * The collectors that run in the background, for the health route: built empty in buildApp, filled by
 * background.ts when it starts them and emptied when it stops them.
 */
export interface RunningCollectors {
  mqtt?: { health(): MqttCollectorHealth };
  modbus?: { health(): ModbusCollectorHealth };
}
