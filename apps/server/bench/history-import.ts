/**
 * bench:history-import — a year of 5-minute data of 20 inverters (one AC power column each: 105,120 rows,
 * about 2.1 M points) as a logger's CSV export (`;`, decimal commas, day-first times) through the whole
 * import over HTTP (app.inject) into SQLite: upload (read, shape detected, every cell checked), preview
 * (points and the quality report), then the run in the background, polled until done. Prints the points
 * per second of the run and of the whole; then the same file again, which stores nothing new. With the
 * default 90-day raw retention about three quarters of the year go to rollups only. Also prints the longest
 * the event loop was held during each step (perf_hooks' delay histogram, 10 ms resolution): reading the
 * file must not stop the server answering. Asserts nothing.
 *   BENCH_DAYS (365)  BENCH_INVERTERS (20)
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { XSRF_COOKIE, XSRF_HEADER, localWallTime, type HistoryImportJob } from '@solar/shared';
import { recordFigure } from './report';
import { benchAdminToken, benchApp, rssMiB, seedPlants } from './setup';

const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const INVERTERS = Number(process.env.BENCH_INVERTERS ?? 20);
const STEP = 300_000;
const ZONE = 'Europe/Istanbul';

function csvOf(startMs: number, rows: number): string {
  const header = ['Time', ...Array.from({ length: INVERTERS }, (_, i) => `INV-${i + 1} Pac [kW]`)].join(';');
  const lines = ['Export of bench plant;', header];
  for (let r = 0; r < rows; r++) {
    const ts = startMs + r * STEP;
    const w = localWallTime(ts, ZONE);
    const hour = Number(w.slice(11, 13)) + Number(w.slice(14, 16)) / 60;
    const sun = Math.max(0, Math.sin(((hour - 6) / 13) * Math.PI));
    const cells = [`${w.slice(8, 10)}.${w.slice(5, 7)}.${w.slice(0, 4)} ${w.slice(11, 16)}`];
    for (let i = 0; i < INVERTERS; i++) cells.push((sun * (95 + i)).toFixed(2).replace('.', ','));
    lines.push(cells.join(';'));
  }
  return lines.join('\r\n');
}

async function main() {
  const { app, ctx, dispose } = await benchApp();
  try {
    const [plant] = await seedPlants(ctx.db, 1, INVERTERS, 2);
    const token = await benchAdminToken(ctx);
    const xsrf = 'bench-xsrf';
    const call = async <T>(method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, [XSRF_HEADER]: xsrf },
        cookies: { [XSRF_COOKIE]: xsrf },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      if (res.statusCode !== 200)
        throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      return res.json<T>();
    };
    const rows = (DAYS * 86_400_000) / STEP;
    const start = Math.floor(Date.now() / 86_400_000) * 86_400_000 - DAYS * 86_400_000;
    const text = csvOf(start, rows);
    const content = Buffer.from(text).toString('base64');
    console.log(`file: ${rows} rows × ${INVERTERS} columns, ${(text.length / 2 ** 20).toFixed(1)} MB CSV`);
    const mapping = {
      columns: plant!.powers.map((signalId, i) => ({
        sheet: 'csv',
        column: i + 1,
        signal_id: signalId,
        unit: 'kW',
      })),
    };

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    /**
     * The longest event-loop delay since the last call, ms: read after a timer's turn, as a block is
     * recorded only by the first timer run after it.
     */
    const longestBlockMs = async () => {
      await new Promise((r) => setTimeout(r, 50));
      const ms = loop.max / 1e6;
      loop.reset();
      return Math.round(ms);
    };
    const once = async (label: string) => {
      await longestBlockMs();
      const t0 = performance.now();
      const job = await call<HistoryImportJob>('POST', `/api/plants/${plant!.plantId}/history-imports`, {
        file_name: 'bench.csv',
        format: 'csv',
        content_base64: content,
      });
      const t1 = performance.now();
      const uploadBlock = await longestBlockMs();
      const preview = await call<{ points: number; points_rollup_only: number }>(
        'POST',
        `/api/history-imports/${job.id}/preview`,
        mapping,
      );
      const t2 = performance.now();
      const previewBlock = await longestBlockMs();
      await call('POST', `/api/history-imports/${job.id}/run`, mapping);
      let done: HistoryImportJob;
      for (;;) {
        done = await call<HistoryImportJob>('GET', `/api/history-imports/${job.id}`);
        if (done.state === 'done' || done.state === 'failed') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const t3 = performance.now();
      const runBlock = await longestBlockMs();
      const runS = (t3 - t2) / 1000;
      const pps = done.points_done / runS;
      console.log(
        `${label}: upload ${((t1 - t0) / 1000).toFixed(1)} s, preview ${((t2 - t1) / 1000).toFixed(1)} s ` +
          `(${preview.points} points, ${preview.points_rollup_only} rollup only), run ${runS.toFixed(1)} s: ` +
          `${done.state}, ${done.points_new} new, ${done.points_existing} existing, ${Math.round(pps)} points/s ` +
          `(${Math.round(done.points_done / ((t3 - t0) / 1000))} points/s from upload to done), RSS ${rssMiB()} MiB; ` +
          `longest event-loop block: upload ${uploadBlock} ms, preview ${previewBlock} ms, run ${runBlock} ms`,
      );
      return {
        pps,
        whole: done.points_done / ((t3 - t0) / 1000),
        points: done.points_done,
        block: Math.max(uploadBlock, previewBlock, runBlock),
      };
    };
    const first = await once('first import');
    const params = { days: DAYS, inverters: INVERTERS, points: first.points };
    recordFigure({
      bench: 'history-import',
      name: 'run_points_per_s',
      value: Math.round(first.pps),
      unit: 'points/s',
      params,
      database: 'sqlite',
    });
    recordFigure({
      bench: 'history-import',
      name: 'upload_to_done_points_per_s',
      value: Math.round(first.whole),
      unit: 'points/s',
      params,
      database: 'sqlite',
    });
    recordFigure({
      bench: 'history-import',
      name: 'longest_event_loop_block_ms',
      value: first.block,
      unit: 'ms',
      params,
      database: 'sqlite',
    });
    const second = await once('same file again');
    recordFigure({
      bench: 'history-import',
      name: 'reimport_points_per_s',
      value: Math.round(second.pps),
      unit: 'points/s',
      params,
      database: 'sqlite',
    });
  } finally {
    await app.close();
    await dispose();
  }
}

await main();
