import type { FastifyBaseLogger } from 'fastify';
import { modbusCollectorStatus, startLeasedModbusPoller } from './collectors/modbus/leased-poller';
import { startModbusPoller, type ModbusPoller } from './collectors/modbus/modbus-poller';
import { startEdgeReadingsCollector, type EdgeReadingsCollector } from './collectors/mqtt/edge-readings';
import { startMqttCollector, type MqttCollector } from './collectors/mqtt/mqtt-collector';
import { runWhileLeader } from './cluster/lease';
import type { AppContext } from './context';
import { startAlarmNotifications, type AlarmNotifications } from './notifications/alarm-digest';
import { startStringHealthJob, type StringHealthJob } from './modules/string-health';
import { IngestKeysService, TelemetryService } from './modules/telemetry';
import { seedDemoFaults } from './seed/demo-faults';
import { startInProcessSimulator, type InProcessSimulator } from './simulator/in-process-simulator';
import { loadSimulator, type Simulator } from './simulator/load-simulator';

/**
 * What runs beside the HTTP server: the demo simulator, the collectors that bring telemetry in, the alarm
 * engine that judges it and the digest that mails what the engine raises.
 */
export interface BackgroundWork {
  simulator: InProcessSimulator | undefined;
  mqtt: MqttCollector | undefined;
  /** Edge agents' batches over MQTT, on the same broker (collectors/mqtt/edge-readings.ts). */
  edgeMqtt: EdgeReadingsCollector | undefined;
  modbus: ModbusPoller | undefined;
  /**
   * The live alarm engine's run on the lease holder (ctx.alarmEngine): begins once the simulator's
   * first-start history is written (at once without one).
   */
  alarms: Promise<{ stop(): Promise<void> } | undefined>;
  alarmNotifications: AlarmNotifications;
  /** Stops everything before the database closes. */
  stop(): Promise<void>;
}

/** The optional simulator package when SIMULATOR is on; without the package the demo plants stay still. */
async function loadDemoSimulator(log: FastifyBaseLogger, enabled: boolean): Promise<Simulator | undefined> {
  if (!enabled) return undefined;
  const simulator = await loadSimulator();
  if (!simulator)
    log.warn('simulator: @solar/simulator is not installed (a devDependency); SIMULATOR is ignored');
  return simulator;
}

/** The demo plant (index among the simulated ones, by id: Serik GES-1) whose history reaches years back. */
export const DEMO_LONG_HISTORY_PLANT = 2;

/** Starts what the configuration turns on. */
export async function startBackground(ctx: AppContext, log: FastifyBaseLogger): Promise<BackgroundWork> {
  const { config } = ctx;
  const engine = ctx.alarmEngine;
  const simulatorModule = await loadDemoSimulator(log, config.simulator.enabled);
  // The demo's first start replays its back-filled month through an engine of its own that publishes
  // nothing: the history gets the alarms it contains, and no one is mailed about the past.
  const history = simulatorModule ? engine.replayer() : undefined;
  await history?.start({ log, listen: false });
  const simulator = simulatorModule
    ? await startInProcessSimulator(ctx, log, {
        simulator: simulatorModule,
        backfillDays: config.simulator.backfillDays,
        history,
        longHistory: config.simulator.longHistoryDays
          ? { plant: DEMO_LONG_HISTORY_PLANT, days: config.simulator.longHistoryDays }
          : undefined,
      })
    : undefined;
  const mqtt = config.mqtt ? startMqttCollector(ctx, log) : undefined;
  const detachMqtt = mqtt && ctx.collectors.attach('mqtt', mqtt);
  const edgeMqtt = config.mqtt ? startEdgeMqtt(ctx, log, config.mqtt) : undefined;
  // The simulator feeds its devices directly; polling their (fictional) addresses would only time out.
  // Polling runs on the lease holder alone, so several nodes poll each device once.
  const modbus = config.modbusPoller
    ? await startLeasedModbusPoller(ctx.lease, log, () =>
        startModbusPoller(ctx, log, { excludeDeviceIds: (id) => simulator?.deviceIds.has(id) ?? false }),
      )
    : undefined;
  const detachModbus = modbus && ctx.collectors.attach('modbus', modbusCollectorStatus(ctx.lease, modbus));
  // The live engine judges what arrives once the history is written and worked into the demo's faults.
  let stopping = false;
  const alarms = (simulator?.backfilled ?? Promise.resolve(false)).then(async (wroteHistory) => {
    await history?.stop();
    if (stopping) return undefined;
    if (wroteHistory && config.demo && simulatorModule) {
      const made = await seedDemoFaults(ctx, ctx.now(), simulatorModule.createRandom);
      log.info(made, 'demo: faults worked from the history');
    }
    // The engine runs on the node that holds the cluster's lease, from the database's state at each start,
    // so that a takeover raises nothing twice.
    let unsubscribe: ((() => void) | undefined)[] = [];
    let strings: StringHealthJob | undefined;
    return runWhileLeader(ctx.lease, log, 'alarm engine', {
      async start() {
        await engine.start({ log, commStatesAtStart: !!modbus });
        // Catch up with the simulated devices as with the poller's: what history left lost may be back.
        for (const event of simulator?.deviceStates() ?? []) engine.deviceState(event);
        unsubscribe = [
          modbus?.onDeviceState((event) => engine.deviceState(event)),
          simulator?.onDeviceState((event) => engine.deviceState(event)),
        ];
        // String faults are judged beside the engine that raises their alarms (docs/string-health.md).
        strings = startStringHealthJob(ctx, log);
      },
      async stop() {
        for (const u of unsubscribe.splice(0)) u?.();
        await strings?.stop();
        strings = undefined;
        await engine.stop();
      },
    });
  });
  alarms.catch((error: unknown) => log.error({ err: error }, 'alarm engine failed to start'));
  const alarmNotifications = startAlarmNotifications(ctx, ctx.alarmFeed, log, {
    windowMs: () => ctx.settings.current().alarm_digest_interval_s * 1000,
  });
  return {
    simulator,
    mqtt,
    edgeMqtt,
    modbus,
    alarms,
    alarmNotifications,
    async stop() {
      stopping = true;
      // The simulator first: it ends a running back-fill, which the engine's start waits for.
      await simulator?.stop();
      await (await alarms.catch(() => undefined))?.stop();
      // Stopped whatever the lease did meanwhile (a start that failed halfway is still stopped).
      await engine.stop();
      await modbus?.stop();
      await mqtt?.stop();
      await edgeMqtt?.stop();
      detachMqtt?.();
      detachModbus?.();
      // Last, so that what is raised while the rest shuts down is still mailed.
      await alarmNotifications.stop();
    },
  };
}

/** The edge agents' MQTT way in: signed by the plant's ingest key, stored as that key's HTTPS ingest is. */
export function startEdgeMqtt(
  ctx: AppContext,
  log: FastifyBaseLogger,
  mqtt: NonNullable<AppContext['config']['mqtt']>,
): EdgeReadingsCollector {
  const keys = new IngestKeysService(ctx);
  const telemetry = new TelemetryService(ctx);
  const collector = startEdgeReadingsCollector(
    {
      plantKey: (plantId) => keys.plantKey(plantId),
      markUsed: (key) => keys.markUsed(key),
      ingest: (principal, points) => telemetry.ingest({ key: principal }, { points }),
    },
    log,
    { url: mqtt.url, clientId: `${mqtt.clientId}-edge`, shareGroup: mqtt.shareGroup },
  );
  const detach = ctx.collectors.attach('edgeMqtt', collector);
  return {
    ...collector,
    async stop() {
      detach();
      await collector.stop();
    },
  };
}
