import type { FastifyBaseLogger } from 'fastify';
import { startModbusPoller, type ModbusPoller } from './collectors/modbus/modbus-poller';
import { startMqttCollector, type MqttCollector } from './collectors/mqtt/mqtt-collector';
import type { AppContext } from './context';
import { startInProcessSimulator, type InProcessSimulator } from './simulator/in-process-simulator';

/** What runs beside the HTTP server: the demo simulator and the collectors that bring telemetry in. */
export interface BackgroundWork {
  simulator: InProcessSimulator | undefined;
  mqtt: MqttCollector | undefined;
  modbus: ModbusPoller | undefined;
  /** Stops everything, newest first, before the database closes. */
  stop(): Promise<void>;
}

/** Starts what the configuration turns on. */
export async function startBackground(ctx: AppContext, log: FastifyBaseLogger): Promise<BackgroundWork> {
  const { config } = ctx;
  const simulator = config.simulator.enabled
    ? await startInProcessSimulator(ctx, log, { backfillDays: config.simulator.backfillDays })
    : undefined;
  const mqtt = config.mqtt ? startMqttCollector(ctx, log) : undefined;
  // The simulator feeds its devices directly; polling their (fictional) addresses would only time out.
  const modbus = config.modbusPoller
    ? startModbusPoller(ctx, log, { excludeDeviceIds: (id) => simulator?.deviceIds.has(id) ?? false })
    : undefined;
  return {
    simulator,
    mqtt,
    modbus,
    async stop() {
      await modbus?.stop();
      await mqtt?.stop();
      await simulator?.stop();
    },
  };
}
