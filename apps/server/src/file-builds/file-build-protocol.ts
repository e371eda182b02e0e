/**
 * The messages between the event loop and a file-build thread (file-build-pool.ts, file-build-thread.ts).
 * A build is a `start` with what the file is, its data in `part`s (the event loop reads them in chunks and
 * sends each as it comes; the thread acknowledges each, which bounds what is in flight), then `end`. The
 * thread answers the file in `chunk`s as it is written, then `done`, or `failed`.
 */
import type { CsvDelimiter, EnergySource, ReportAnswer, ReportFormat } from '@solar/shared';
import type { ExportSeriesPart } from '../modules/telemetry';

/**
 * A report: its answer follows in parts, first its head, then its plants in slices. A production report's
 * head holds its plants without their rows (but for a single plant) and each plant's row sources, so that
 * its PDF is written plant by plant: the head (summary, tiles, charts), then each plant's table as its
 * slice comes, never the whole year of every plant at once. Other reports' heads hold no plants.
 */
export interface ReportBuild {
  kind: 'report';
  format: Exclude<ReportFormat, 'json'>;
  delimiter: CsvDelimiter;
}

/** A telemetry export: the series follow in parts. */
export interface TelemetryBuild {
  kind: 'telemetry';
  format: 'csv' | 'xlsx';
  delimiter: CsvDelimiter;
}

export type FileBuildJob = ReportBuild | TelemetryBuild;

/**
 * The nice value for file-build threads on a machine of the console's own (FILE_BUILD_NICE=10). Not the
 * default: where other work keeps the cores busy, it starves the builds (docs/security.md, "Report and
 * export builds").
 */
export const FILE_BUILD_THREAD_NICE = 10;

/** What a file-build thread is started with. */
export interface FileBuildThreadData {
  /** Its nice value; 0 keeps the process's priority. */
  nice: number;
}

/**
 * The report's head (`sources`: a production report's plants' row sources, in the head's order), a slice of
 * its plants, or one signal's points of an export.
 */
export type FileBuildPart =
  | { head: ReportAnswer; sources?: EnergySource[][] }
  | { plants: ReportAnswer['plants'] }
  | { series: ExportSeriesPart };

export type ToThread =
  | { type: 'start'; id: number; job: FileBuildJob }
  | { type: 'part'; id: number; part: FileBuildPart }
  | { type: 'end'; id: number }
  | { type: 'cancel'; id: number };

export type FromThread =
  | { type: 'ack'; id: number }
  | { type: 'chunk'; id: number; bytes: Uint8Array }
  | { type: 'done'; id: number }
  | { type: 'failed'; id: number; message: string };
