/**
 * bench:login — POST /api/users/login throughput and latency with 50 concurrent clients against the built
 * server, plus what one scrypt hash costs at the configured parameters. Prints figures; asserts nothing.
 */
import { scryptSync, randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { DEMO } from '../src/browser';
import { startServer } from '../src/server';
import { recordFigure, recordLatencies } from './report';

const CLIENTS = Number(process.env.CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const LOG_N = Number(process.env.SCRYPT_LOG_N ?? 15);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

// One hash, as the server does it (N = 2^logN, r = 8, p = 1).
const hashTimes: number[] = [];
for (let i = 0; i < 10; i++) {
  const t0 = performance.now();
  scryptSync('Solar!Admin1', randomBytes(16), 32, {
    N: 2 ** LOG_N,
    r: 8,
    p: 1,
    maxmem: 256 * 2 ** LOG_N * 8 + 2 ** 20,
  });
  hashTimes.push(performance.now() - t0);
}
hashTimes.sort((a, b) => a - b);
console.log(
  `scrypt N=2^${LOG_N} r=8 p=1: ${((128 * 2 ** LOG_N * 8) / 2 ** 20).toFixed(0)} MiB, median ${pct(hashTimes, 50).toFixed(1)} ms per hash on ${cpus()[0]?.model ?? 'cpu'} (${cpus().length} cores)`,
);

const server = await startServer({ SCRYPT_LOG_N: String(LOG_N), LOG_LEVEL: 'error' });
try {
  const health = await fetch(`${server.url}/api/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')![1]!;
  const headers = { 'content-type': 'application/json', 'x-xsrf-token': xsrf, cookie: `XSRF-TOKEN=${xsrf}` };
  const body = JSON.stringify(DEMO.admin);
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const start = performance.now();
        const res = await fetch(`${server.url}/api/users/login`, { method: 'POST', headers, body });
        await res.arrayBuffer();
        if (res.status === 200) latencies.push(performance.now() - start);
        else errors++;
      }
    }),
  );
  const elapsedS = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `POST users/login, ${CLIENTS} concurrent clients, ${elapsedS.toFixed(1)} s: ${(latencies.length / elapsedS).toFixed(1)} logins/s, p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, errors ${errors}`,
  );
  const params = { clients: CLIENTS, seconds: Number(elapsedS.toFixed(1)) };
  recordFigure({
    bench: 'login',
    name: 'logins_per_s',
    value: Number((latencies.length / elapsedS).toFixed(1)),
    unit: 'logins/s',
    params,
  });
  recordLatencies('login', 'login', latencies, { params });
} finally {
  await server.stop();
}
