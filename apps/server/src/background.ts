import type { FastifyBaseLogger } from 'fastify';
import { startModbusPoller, type ModbusPoller } from './collectors/modbus/modbus-poller';
import { startMqttCollector, type MqttCollector } from './collectors/mqtt/mqtt-collector';
import type { AppContext } from './context';
import type { AlarmEngine } from './modules/alarms/engine/alarm-engine';
import { startAlarmNotifications, type AlarmNotifications } from './notifications/alarm-digest';
import { startInProcessSimulator, type InProcessSimulator } from './simulator/in-process-simulator';

/**
 * What runs beside the HTTP server: the demo simulator, the collectors that bring telemetry in, the alarm
 * engine that judges it and the digest that mails what the engine raises.
 */
export interface BackgroundWork {
  simulator: InProcessSimulator | undefined;
  mqtt: MqttCollector | undefined;
  modbus: ModbusPoller | undefined;
  /** Starts once the simulator's first-start history is written (at once without one). */
  alarms: Promise<AlarmEngine | undefined>;
  alarmNotifications: AlarmNotifications;
  /** Stops everything before the database closes. */
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
  // The engine judges what arrives from now on: a month of back-filled history would replay old trips as
  // new alarms (and mails), so it starts once the back-fill is written.
  let stopping = false;
  const alarms = (simulator?.backfilled ?? Promise.resolve()).then(async () => {
    if (stopping) return undefined;
    const engine = ctx.alarmEngine;
    await engine.start({ log, commStatesAtStart: !!modbus });
    const unsubscribe = modbus?.onDeviceState((event) => engine.deviceState(event));
    return {
      ...engine,
      async stop() {
        unsubscribe?.();
        await engine.stop();
      },
    };
  });
  alarms.catch((error: unknown) => log.error({ err: error }, 'alarm engine failed to start'));
  const alarmNotifications = startAlarmNotifications(ctx, ctx.alarmFeed, log);
  return {
    simulator,
    mqtt,
    modbus,
    alarms,
    alarmNotifications,
    async stop() {
      stopping = true;
      // The simulator first: it ends a running back-fill, which the engine's start waits for.
      await simulator?.stop();
      await (await alarms.catch(() => undefined))?.stop();
      await modbus?.stop();
      await mqtt?.stop();
      // Last, so that what is raised while the rest shuts down is still mailed.
      await alarmNotifications.stop();
    },
  };
}
