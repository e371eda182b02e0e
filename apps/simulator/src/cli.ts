/**
 * Runs the simulator standalone:
 *   tsx apps/simulator/src/cli.ts mqtt --url mqtt://127.0.0.1:1883 [--plants plants.json] [--interval 10000]
 *   tsx apps/simulator/src/cli.ts modbus [--port 1502] [--host 127.0.0.1] [--plants plants.json] [--plant <id>]
 *     [--huawei-port 1503]   (also serves the plant's inverters as Huawei SUN2000s, units 1…, on that port)
 *     [--huawei-rtu-tcp]     (the Huawei port carries RTU frames over TCP, as a SmartLogger's or an RS485
 *     gateway's serial side would, instead of Modbus TCP)
 *     [--rtu-tcp | --serial /dev/ttyX] [--baud 9600] [--parity none|even|odd] [--pace]
 *     (Modbus TCP by default; --rtu-tcp: RTU frames over TCP, as a gateway passes them; --serial: RTU on a
 *     serial port, e.g. one end of `socat -d -d pty,raw,echo=0,link=/tmp/a pty,raw,echo=0,link=/tmp/b`;
 *     --pace: answer after the time the frames take at --baud, for virtual ports)
 *   tsx apps/simulator/src/cli.ts backfill [--days 30] [--step 300] [--plants plants.json]   (measures speed)
 * Common: --seed <n>, --no-faults, --no-clouds, --data-faults (one fault of each data kind on the first plant,
 * from the start: physics/data-faults.ts exampleDataFaults; printed with their periods). Without --plants,
 * the built-in six demo plants.
 * A plants file is a JSON array of VirtualPlantDefinition.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exampleTopology } from './example-topology';
import { driveSunSpecFromPlant } from './modbus/drive';
import { driveHuaweiFromPlant, startHuaweiServer } from './modbus/huawei-server';
import { startSunSpecServer } from './modbus/sunspec-server';
import type { SunSpecTransport, SunSpecUnit } from './modbus/sunspec-server';
import { startMqttPublisher } from './mqtt-publisher';
import { exampleDataFaults } from './physics/data-faults';
import { backfillPlants, createVirtualPlant } from './plant';
import type { VirtualPlantDefinition } from './plant';

const USAGE = `usage: cli.ts <mqtt|modbus|backfill> [--url URL] [--plants FILE] [--interval MS] [--port N]
  [--host H] [--plant ID] [--huawei-port N] [--huawei-rtu-tcp] [--days N] [--step S] [--seed N] [--no-faults] [--no-clouds]
  [--data-faults] [--rtu-tcp | --serial PATH] [--baud N] [--parity none|even|odd] [--pace]`;

/** Prints a line of progress (the CLI's whole purpose is to report what it runs). */
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
      plants: { type: 'string' },
      interval: { type: 'string', default: '10000' },
      port: { type: 'string', default: '1502' },
      host: { type: 'string', default: '127.0.0.1' },
      plant: { type: 'string' },
      'huawei-port': { type: 'string' },
      'huawei-rtu-tcp': { type: 'boolean', default: false },
      days: { type: 'string', default: '30' },
      step: { type: 'string', default: '300' },
      seed: { type: 'string', default: '1' },
      'no-faults': { type: 'boolean', default: false },
      'no-clouds': { type: 'boolean', default: false },
      'data-faults': { type: 'boolean', default: false },
      'rtu-tcp': { type: 'boolean', default: false },
      serial: { type: 'string' },
      baud: { type: 'string', default: '9600' },
      parity: { type: 'string', default: 'none' },
      pace: { type: 'boolean', default: false },
    },
  });
  const command = positionals[0];
  const definitions = values.plants
    ? (JSON.parse(readFileSync(values.plants, 'utf8')) as VirtualPlantDefinition[])
    : exampleTopology();
  const options = { seed: Number(values.seed), faults: !values['no-faults'], clouds: !values['no-clouds'] };
  const plants = definitions.map((d) => createVirtualPlant(d, options));
  const startMs = command === 'backfill' ? Date.now() - Number(values.days) * 86_400_000 : Date.now();
  if (values['data-faults'] && plants[0]) {
    for (const fault of exampleDataFaults(plants[0].definition, startMs)) plants[0].injectDataFault(fault);
    for (const f of plants[0].truth().dataFaults) {
      log(
        `data fault ${f.kind} (${f.reason}) on ${plants[0].definition.plantId}/${f.deviceId}` +
          `${f.signalKey ? `/${f.signalKey}` : ''}: ${new Date(f.fromMs).toISOString()} → ${new Date(f.toMs).toISOString()}`,
      );
    }
  }
  const stopOnSignal = (stop: () => Promise<void>) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void stop().then(() => process.exit(0)));
    }
  };

  if (command === 'mqtt') {
    const publisher = await startMqttPublisher({
      url: values.url,
      plants,
      intervalMs: Number(values.interval),
    });
    log(
      `publishing ${plants.length} plants to ${values.url} every ${values.interval} ms (solar/{plant}/{device}/telemetry)`,
    );
    stopOnSignal(() => publisher.stop());
  } else if (command === 'modbus') {
    const plant = values.plant
      ? plants.find((p) => String(p.definition.plantId) === values.plant)
      : plants[0];
    if (!plant) throw new Error(`No plant ${values.plant}`);
    const units: SunSpecUnit[] = [];
    const mapping: { unitId: number; deviceId: number | string }[] = [];
    let inverterUnit = 1;
    for (const d of plant.definition.devices) {
      const kind =
        d.type === 'inverter'
          ? 'inverter'
          : d.type === 'meter'
            ? 'meter'
            : d.type === 'weather_station'
              ? 'weather'
              : null;
      if (!kind) continue;
      // Inverters take units 1…, the meter 100, the weather station 200.
      const unitId = kind === 'inverter' ? inverterUnit++ : kind === 'meter' ? 100 : 200;
      const ratedPowerW =
        kind === 'inverter'
          ? (d.ratedPowerKw ?? 100) * 1000
          : kind === 'meter'
            ? plant.definition.dcCapacityKwp * 1000
            : undefined;
      units.push({
        unitId,
        kind,
        manufacturer: 'Solar Simulator',
        model: `${kind}`,
        serial: `SIM-${d.deviceId}`,
        ratedPowerW,
      });
      mapping.push({ unitId, deviceId: d.deviceId });
    }
    const parity = values.parity;
    if (parity !== 'none' && parity !== 'even' && parity !== 'odd') throw new Error(USAGE);
    const line = { baudRate: Number(values.baud), parity } as const;
    const transport: SunSpecTransport = values.serial
      ? { kind: 'rtu-serial', path: values.serial, line, paceLine: values.pace }
      : values['rtu-tcp']
        ? { kind: 'rtu-tcp', paceLine: values.pace ? line : undefined }
        : { kind: 'tcp' };
    const server = await startSunSpecServer({
      host: values.host,
      port: Number(values.port),
      units,
      transport,
    });
    const driver = driveSunSpecFromPlant(server, plant, mapping, Number(values.interval));
    log(
      transport.kind === 'rtu-serial'
        ? `SunSpec Modbus RTU on ${transport.path} (${line.baudRate} baud, ${parity}) for plant ${plant.definition.plantId}`
        : `SunSpec Modbus ${transport.kind === 'tcp' ? 'TCP' : 'RTU over TCP'} on ${values.host}:${server.port} for plant ${plant.definition.plantId}`,
    );
    for (const m of mapping) log(`  unit ${m.unitId} ← device ${m.deviceId}`);
    // The same inverters with Huawei's SUN2000 register map: a device that does not speak SunSpec.
    const huaweiPort = values['huawei-port'];
    const inverters = mapping.filter((m) => m.unitId < 100);
    const huawei = huaweiPort
      ? await startHuaweiServer({
          host: values.host,
          port: Number(huaweiPort),
          unitIds: inverters.map((m) => m.unitId),
          transport: values['huawei-rtu-tcp'] ? { kind: 'rtu-tcp' } : { kind: 'tcp' },
        })
      : null;
    const huaweiDriver = huawei
      ? driveHuaweiFromPlant(huawei, plant, inverters, Number(values.interval))
      : null;
    if (huawei)
      log(
        `Huawei SUN2000 Modbus ${values['huawei-rtu-tcp'] ? 'RTU over TCP' : 'TCP'} on ${values.host}:${huawei.port}, units ${inverters.map((m) => m.unitId).join(', ')}`,
      );
    stopOnSignal(async () => {
      driver.stop();
      huaweiDriver?.stop();
      await server.close();
      await huawei?.close();
    });
  } else if (command === 'backfill') {
    const from = startMs;
    const to = from + Number(values.days) * 86_400_000;
    const result = await backfillPlants(plants, from, to, Number(values.step) * 1000, () => undefined);
    log(
      `backfilled ${plants.length} plants × ${values.days} days at ${values.step} s: ${result.samples} plant samples, ` +
        `${result.points} points in ${Math.round(result.elapsedMs)} ms`,
    );
  } else {
    log(USAGE);
    process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
