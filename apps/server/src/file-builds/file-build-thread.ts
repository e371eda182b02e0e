/**
 * A file-build thread: lays reports (CSV, XLSX, PDF) and telemetry exports (CSV, XLSX) out off the event
 * loop, where a year of a large fleet used to hold the server for tens of seconds (docs/security.md, "Report
 * and export builds"). It runs one build at a time, messages in order (file-build-protocol.ts).
 */
import { Writable } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import type { EnergySource, ProductionReportAnswer, ReportAnswer } from '@solar/shared';
// A thread's entry, bundled on its own (build.mjs): it loads the file builders alone, not the modules'
// indexes, which would bring the database drivers and the KPI engine into every file-build thread.
import { reportCsvWriter, toReportCsv } from '../modules/reports/report-csv';
import {
  plantCsvRows,
  plantTable,
  reportDocument,
  reportHeadDocument,
} from '../modules/reports/report-document';
import { ReportPdfWriter } from '../modules/reports/report-pdf';
import { reportXlsxWriter, toReportXlsx } from '../modules/reports/report-xlsx';
import { csvHead, csvLines, xlsxExportWriter } from '../modules/telemetry/telemetry.export';
import { lowerThreadPriority } from '../lib/thread-priority';
import type {
  FileBuildJob,
  FileBuildPart,
  FileBuildThreadData,
  FromThread,
  ToThread,
} from './file-build-protocol';

// A build keeps its core busy for minutes. With FILE_BUILD_NICE set, where the machine has no core to spare,
// the event loop's short requests go first and the build takes what is left (file-build-pool.ts).
const { nice } = workerData as FileBuildThreadData;
if (nice > 0) lowerThreadPriority(nice);

const port = parentPort!;
const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** A buffer of its own (not a slice of a pooled one), so that it can be moved to the event loop. */
function sendBytes(id: number, bytes: Uint8Array) {
  if (!bytes.byteLength) return;
  const own = new Uint8Array(bytes);
  post({ type: 'chunk', id, bytes: own }, [own.buffer]);
}

/** What the thread writes to: each chunk goes to the event loop as it comes. */
function outputOf(id: number): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sendBytes(id, chunk);
      callback();
    },
  });
}

const finished = (stream: Writable) =>
  new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve);
    stream.once('error', reject);
  });

type ProductionPlant = ProductionReportAnswer['plants'][number];

interface Build {
  add(part: FileBuildPart): Promise<void> | void;
  end(): Promise<void>;
}

/** Bytes gathered before they go to the event loop: pdfkit writes a file in many small pieces. */
const BATCH_BYTES = 64 * 1024;

/** Sends what is written in batches of about BATCH_BYTES; `flush` sends the rest. */
function batchedOutput(id: number) {
  let pending: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (!size) return;
    sendBytes(id, pending.length === 1 ? pending[0]! : Buffer.concat(pending, size));
    pending = [];
    size = 0;
  };
  const write = (chunk: Buffer) => {
    pending.push(chunk);
    size += chunk.length;
    if (size >= BATCH_BYTES) flush();
  };
  return { write, flush };
}

/** Where a production report's tables go as its plants come: each format's writer behind one face. */
interface PlantSink {
  plant(plant: ProductionPlant): Promise<void> | void;
  end(): Promise<void>;
}

/** A production report's file, started from its head (summary, tiles, charts, the plants' row sources). */
async function productionSink(
  id: number,
  job: Extract<FileBuildJob, { kind: 'report' }>,
  head: ProductionReportAnswer,
  sources: EnergySource[][],
  output: ReturnType<typeof batchedOutput>,
): Promise<PlantSink> {
  const doc = reportHeadDocument(head, sources);
  if (job.format === 'pdf') {
    const pdf = await ReportPdfWriter.start(doc, output.write);
    for (const table of doc.tables) pdf.table(table);
    return {
      plant: (plant) => pdf.table(plantTable(head, plant)),
      async end() {
        await pdf.end();
        output.flush();
      },
    };
  }
  if (job.format === 'csv') {
    // The plants' rows as they come, the totals row (in the head) last.
    const csv = reportCsvWriter(doc.lang, doc.csv.columns, job.delimiter);
    output.write(Buffer.from(csv.head(), 'utf8'));
    return {
      plant: (plant) => output.write(Buffer.from(csv.lines(plantCsvRows(head, plant)), 'utf8')),
      end() {
        output.write(Buffer.from(csv.lines(doc.csv.totals ? [doc.csv.totals] : []), 'utf8'));
        output.flush();
        return Promise.resolve();
      },
    };
  }
  const out = outputOf(id);
  const done = finished(out);
  const xlsx = reportXlsxWriter(doc, out);
  for (const table of doc.tables) await xlsx.add(table);
  return {
    plant: (plant) => xlsx.add(plantTable(head, plant)),
    async end() {
      await xlsx.end(doc.warnings);
      await done;
    },
  };
}

/**
 * A report. A production report's file (PDF, XLSX, CSV) is written plant by plant as the slices come (its
 * head carries what the summary, tiles and charts need): the thread holds one slice and one page or sheet,
 * not the year of every plant, which ran the largest report the limits allow out of its heap. Other
 * reports' files are laid out from the whole answer, gathered first: their plants are one row each.
 */
function reportBuild(id: number, job: Extract<FileBuildJob, { kind: 'report' }>): Build {
  const plants: unknown[] = [];
  let head: ReportAnswer | undefined;
  const output = batchedOutput(id);
  let streamed: PlantSink | undefined;
  return {
    async add(part) {
      if ('head' in part) {
        head = part.head;
        if (head.type === 'production' && part.sources)
          streamed = await productionSink(id, job, head, part.sources, output);
      }
      if ('plants' in part) {
        if (streamed) {
          for (const plant of part.plants as ProductionPlant[]) {
            await streamed.plant(plant);
            // The plant's pages or rows leave before the next plant is written.
            output.flush();
            await turn();
          }
        } else for (const p of part.plants) plants.push(p);
      }
    },
    async end() {
      if (!head) throw new Error('a report build without its report');
      if (streamed) return streamed.end();
      const report = { ...head, plants } as ReportAnswer;
      const doc = reportDocument(report);
      plants.length = 0;
      if (job.format === 'csv') sendBytes(id, Buffer.from(toReportCsv(doc, job.delimiter), 'utf8'));
      else if (job.format === 'pdf') {
        const writer = await ReportPdfWriter.start(doc, output.write);
        for (const table of doc.tables) writer.table(table);
        await writer.end();
        output.flush();
      } else {
        const out = outputOf(id);
        const done = finished(out);
        await toReportXlsx(doc, out);
        await done;
      }
    },
  };
}

function telemetryBuild(id: number, job: Extract<FileBuildJob, { kind: 'telemetry' }>): Build {
  if (job.format === 'csv') {
    sendBytes(id, Buffer.from(csvHead(job.delimiter), 'utf8'));
    return {
      add(part) {
        if ('series' in part) sendBytes(id, Buffer.from(csvLines(part.series, job.delimiter), 'utf8'));
      },
      end: () => Promise.resolve(),
    };
  }
  const out = outputOf(id);
  const done = finished(out);
  const writer = xlsxExportWriter(out);
  return {
    async add(part) {
      if ('series' in part) await writer.add(part.series);
    },
    async end() {
      await writer.end();
      await done;
    },
  };
}

const builds = new Map<number, Build>();
let queue: Promise<void> = Promise.resolve();

async function handle(m: ToThread) {
  if (m.type === 'start') {
    builds.set(m.id, m.job.kind === 'report' ? reportBuild(m.id, m.job) : telemetryBuild(m.id, m.job));
    return;
  }
  const build = builds.get(m.id);
  if (!build) return;
  if (m.type === 'cancel') {
    builds.delete(m.id);
    return;
  }
  if (m.type === 'part') {
    await build.add(m.part);
    post({ type: 'ack', id: m.id });
    return;
  }
  builds.delete(m.id);
  await build.end();
  post({ type: 'done', id: m.id });
}

port.on('message', (m: ToThread) => {
  // One message after the other: a part is written before the next one, the file ends after the last.
  queue = queue
    .then(() => handle(m))
    .catch((error: unknown) => {
      builds.delete(m.id);
      post({ type: 'failed', id: m.id, message: error instanceof Error ? error.message : String(error) });
    });
});
