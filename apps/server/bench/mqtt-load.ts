/**
 * bench:mqtt's load generator, in a process of its own so that publishing does not share the collector's
 * event loop: publishes `messages` QoS 1 telemetry messages round-robin over the given devices, each device
 * one second apart, with up to `window` publishes awaiting their PUBACK at once. Reads its job as JSON from
 * the file named by argv[2]; prints one JSON line
 * when done.
 */
import { readFileSync } from 'node:fs';
import mqtt from 'mqtt';

interface Job {
  url: string;
  root: string;
  devices: { plantId: number; deviceId: number; keys: string[] }[];
  messages: number;
  startTs: number;
  window: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job;
const client = await mqtt.connectAsync(job.url, { clientId: `bench-load-${process.pid}`, clean: true });
const t0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: job.window }, async () => {
    while (next < job.messages) {
      const n = next++;
      const device = job.devices[n % job.devices.length]!;
      const step = Math.floor(n / job.devices.length);
      const values = Object.fromEntries(device.keys.map((k, i) => [k, i === 0 ? 1000 + step : (n % 97) + i]));
      await client.publishAsync(
        `${job.root}/${device.plantId}/${device.deviceId}/telemetry`,
        JSON.stringify({ ts: job.startTs + step * 1000, values }),
        { qos: 1 },
      );
    }
  }),
);
console.log(JSON.stringify({ published: job.messages, seconds: (performance.now() - t0) / 1000 }));
await client.endAsync();
