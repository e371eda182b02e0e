import type { historyImportMapping } from '@solar/shared';
import {
  E,
  HISTORY_IMPORT_ERRORS,
  TELEMETRY_FUTURE_TOLERANCE_MS,
  V,
  type HistoryFileDetection,
  type HistoryImportFormat,
  type HistoryImportJob,
  type HistoryImportList,
  type HistoryImportPreview,
  type HistoryImportState,
  type HistoryImportUploadBody,
} from '@solar/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { storeRollupsOnly } from '../../telemetry-store/history-rollups';
import { loadSignalMeta } from '../../telemetry-store/telemetry-store.repository';
import { recordAudit } from '../audit';
import { markDaysOfInstantsDirty } from '../kpi';
import { problemsAsErrors } from './history-file';
import type { FileAnswer, FileRequest } from './history-file-protocol';
import { readInThread } from './history-file-reader';
import { unitFactor, type ColumnPlan, type Point, type SignalPoints } from './history-points';
import { signalQuality, sumQuality, type PlantInfo } from './history-quality';
import * as repo from './history-import.repository';

type Mapping = z.output<typeof historyImportMapping>;
type Ctx = Pick<AppContext, 'db' | 'dialect' | 'now' | 'telemetry' | 'settings' | 'uploadReadingSlots'>;

/** Points handed to the store at once: the ingest route's batch size. */
const RAW_CHUNK = 5_000;
/**
 * Points of one signal written as rollups at once (a month of 5-minute data is 8,640), their days then marked
 * for the KPI refresh: SQLite writes on the event loop, and 20,000 at once held it for seconds on a loaded
 * machine (bench:history-import). The marking looks up the calendar once per 15-minute slot; done once for
 * a signal's whole span older than the raw retention, it held the loop 320 ms for 30 days of it (and so
 * seconds for a year's), so it is done chunk by chunk (history-import-event-loop.test.ts).
 */
const ROLLUP_CHUNK = 2_000;
/** A turn of the event loop for other requests, between two signals' work. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const DAY_MS = 86_400_000;
/** How often the node running an import writes its heartbeat, besides after each chunk. */
const HEARTBEAT_MS = 10_000;
/**
 * A job `queued` or `running` not written for this long lost its node (a crash, a kill, a restart): a
 * node takes it over at its start, and every as long after (docs/history-import.md, "A restart during a run").
 */
export const HISTORY_IMPORT_STALE_MS = 60_000;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function jobOf(row: repo.ImportRow): HistoryImportJob {
  return {
    id: row.id,
    plant_id: row.plant_id,
    file_name: row.file_name,
    format: row.format as HistoryImportFormat,
    state: row.state as HistoryImportState,
    detection: JSON.parse(row.detection) as HistoryFileDetection,
    points_total: Number(row.points_total),
    points_done: Number(row.points_done),
    points_new: Number(row.points_new),
    points_existing: Number(row.points_existing),
    errors: JSON.parse(row.errors) as string[],
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

/** Where a run starts: a new one, or one resumed after its process died having stored `storedBefore`. */
interface Resumption {
  storedBefore: number;
  resumed: boolean;
}

/** A file as the reading thread answers it. */
type ReadAnswer = Extract<FileAnswer, { ok: true }>;

/**
 * Each signal's points as objects again, a signal per turn of the event loop (about 100,000 points each
 * for a year of 5-minute data): the store and the detectors take points.
 */
async function signalPointsOf(answer: ReadAnswer): Promise<Map<number, SignalPoints>> {
  const out = new Map<number, SignalPoints>();
  for (const [id, s] of answer.bySignal) {
    await nextTurn();
    const points: Point[] = new Array<Point>(s.ts.length);
    for (let i = 0; i < s.ts.length; i++) points[i] = { ts: s.ts[i]!, value: s.values[i]! };
    out.set(id, { signal: s.signal, points, duplicates: s.duplicates });
  }
  return out;
}

/** What a mapping resolves to: the file read with its overrides into points, the columns' plans and the plant. */
interface Resolved {
  rows: number;
  bySignal: Map<number, SignalPoints>;
  plans: ColumnPlan[];
  plant: PlantInfo;
  timeZone: string;
  signals: Map<number, { key: string; deviceName: string; ratedPowerKw: number | null }>;
}

/**
 * History import from other systems: upload (shape detected, malformed cells refused with their line and
 * column), preview of a mapping with its quality report, and the run in the background with progress.
 * Everything is scoped to the plant: its imports and its signals only.
 */
export class HistoryImportService {
  private readonly running = new Set<Promise<void>>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void },
  ) {}

  /** Waits for the imports running in this process (the app is closing). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    // A sweep under way may start the runs it resumes meanwhile: those are waited for too.
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /**
   * Takes over the imports whose node died, now and every HISTORY_IMPORT_STALE_MS (a node of a cluster
   * that stops is taken over by one that keeps running).
   */
  start(): void {
    this.track(this.resumeInterrupted());
    this.sweeper = setInterval(() => this.track(this.resumeInterrupted()), HISTORY_IMPORT_STALE_MS);
    this.sweeper.unref();
  }

  /** Keeps `work` until it ends, so that close() waits for it; its failure is logged. */
  private track(work: Promise<void>): void {
    const job = work.catch((error: unknown) => this.log.error({ err: error }, 'history import failed'));
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }

  /**
   * Resumes the imports left `queued` or `running` by a process that died: the file is kept with the job
   * and storing is idempotent (raw points ON CONFLICT DO NOTHING, rollup-only buckets already stored left
   * as they are), so the import runs again from its first row with the mapping it was started with, and
   * what the dead process stored counts as stored once. A mapping that no longer fits the plant (a signal
   * removed since) fails the job with `errors.historyImportInterrupted`, to be mapped and run again.
   */
  private async resumeInterrupted(): Promise<void> {
    const { db } = this.ctx;
    const staleBefore = this.ctx.now() - HISTORY_IMPORT_STALE_MS;
    for (const row of await repo.interruptedImports(db, staleBefore)) {
      if (!(await repo.claimInterrupted(db, row.id, staleBefore, this.ctx.now()))) continue;
      let resolved: Resolved;
      try {
        const plant = await repo.plantInScope(db, { all: true }, row.plant_id);
        if (!plant || !row.mapping) throw badRequest({});
        const mapping = JSON.parse(row.mapping) as Mapping;
        resolved = await this.resolveFor(row.user_id ?? 0, row, plant, mapping);
      } catch (problem) {
        if (problem instanceof HttpError && problem.status === 429) {
          // Every reading slot is taken: left stale, for the next sweep.
          await repo.updateImport(db, row.id, { heartbeat_at: null });
          continue;
        }
        if (!(problem instanceof HttpError)) throw problem;
        await repo.updateImport(db, row.id, {
          state: 'failed',
          errors: JSON.stringify([HISTORY_IMPORT_ERRORS.interrupted]),
          finished_at: this.ctx.now(),
          heartbeat_at: null,
        });
        continue;
      }
      this.log.warn({ importId: row.id }, 'history import interrupted by a stop: resumed');
      this.startExecution(row.id, resolved, { storedBefore: Number(row.points_new), resumed: true });
    }
  }

  private async plantOf(actor: Actor, plantId: number) {
    const plant = await repo.plantInScope(this.ctx.db, scopeOf(actor), plantId);
    if (!plant) throw notFound();
    return plant;
  }

  private async jobInScope(actor: Actor, id: number) {
    const row = await repo.readImport(this.ctx.db, id);
    if (!row) throw notFound();
    const plant = await this.plantOf(actor, row.plant_id);
    return { row, plant };
  }

  /**
   * Reads a file while holding one of the upload slots the budget import also uses (a file being read
   * holds its bytes and cells in memory): 429 when the caller or the server already reads as many.
   */
  private async read(
    userId: number,
    format: 'csv' | 'xlsx',
    data: Buffer,
    mapping?: Mapping,
    build?: FileRequest['build'],
  ): Promise<ReadAnswer> {
    const release = await this.ctx.uploadReadingSlots.take(userId);
    if (!release) throw new HttpError(429, E.budgetImportBusy, undefined, { 'retry-after': '5' });
    try {
      const answer = await readInThread(
        format,
        data,
        { time_format: mapping?.time_format, decimal_mark: mapping?.decimal_mark },
        build,
      );
      if (!answer.ok) throw badRequest(problemsAsErrors(answer.problems), HISTORY_IMPORT_ERRORS.invalid);
      return answer;
    } finally {
      await release();
    }
  }

  /** GET plants/{id}/history-imports: the plant's latest imports. */
  async list(actor: Actor, plantId: number): Promise<HistoryImportList> {
    const plant = await this.plantOf(actor, plantId);
    const rows = await repo.listImports(this.ctx.db, plantId);
    return {
      time_zone: plant.time_zone,
      items: rows.map((r) => {
        const { detection: _detection, ...rest } = jobOf(r);
        return rest;
      }),
    };
  }

  /** GET history-imports/{id}: the import and its progress. */
  async get(actor: Actor, id: number): Promise<HistoryImportJob> {
    const { row } = await this.jobInScope(actor, id);
    return jobOf(row);
  }

  /** POST plants/{id}/history-imports: the file read, shaped and checked; nothing is stored but the file. */
  async upload(actor: Actor, plantId: number, body: HistoryImportUploadBody): Promise<HistoryImportJob> {
    await this.plantOf(actor, plantId);
    const data = Buffer.from(body.content_base64, 'base64');
    const file = await this.read(actor.userId, body.format, data);
    const now = this.ctx.now();
    const id = await repo.insertImport(this.ctx.db, {
      plant_id: plantId,
      user_id: actor.userId,
      file_name: body.file_name,
      format: body.format,
      content: data,
      detection: JSON.stringify(file.detection),
      mapping: null,
      state: 'uploaded',
      errors: '[]',
      created_at: now,
      started_at: null,
      finished_at: null,
      heartbeat_at: null,
    });
    await recordAudit(this.ctx.db, {
      userId: actor.userId,
      action: 'create',
      entity: 'history_import',
      entityId: id,
      after: { plant_id: plantId, file_name: body.file_name, format: body.format, bytes: data.length },
      ip: actor.ip,
      at: now,
    });
    return jobOf((await repo.readImport(this.ctx.db, id))!);
  }

  /** Checks a mapping against the file and the plant: 400 with the field at fault. */
  private async resolve(
    actor: Actor,
    id: number,
    mapping: Mapping,
  ): Promise<Resolved & { row: repo.ImportRow }> {
    const { row, plant } = await this.jobInScope(actor, id);
    return { row, ...(await this.resolveFor(actor.userId, row, plant, mapping)) };
  }

  /** resolve() for a job and plant already found: its caller's, or the job's owner's at a resume. */
  private async resolveFor(
    userId: number,
    row: repo.ImportRow,
    plant: NonNullable<Awaited<ReturnType<typeof repo.plantInScope>>>,
    mapping: Mapping,
  ): Promise<Resolved> {
    const ids = [...new Set(mapping.columns.map((c) => c.signal_id))];
    const found = new Map(
      (await repo.signalsOfPlant(this.ctx.db, plant.id, ids)).map((s) => [s.id, s] as const),
    );
    const errors: Record<string, string[]> = {};
    const seen = new Set<number>();
    const plans: ColumnPlan[] = [];
    mapping.columns.forEach((c, i) => {
      const at = `columns.${i}`;
      const signal = found.get(c.signal_id);
      // A signal of another plant reads as unknown: its existence is not revealed.
      if (!signal) return void (errors[`${at}.signal_id`] ??= []).push(V.invalidValue);
      if (seen.has(c.signal_id)) (errors[`${at}.signal_id`] ??= []).push(V.duplicate);
      seen.add(c.signal_id);
      const factor = unitFactor(c.unit, signal.unit);
      if (factor === undefined) (errors[`${at}.unit`] ??= []).push(V.invalidValue);
      const isCounter = Number(signal.is_counter) === 1;
      plans.push({
        sheet: c.sheet,
        column: c.column,
        signal: { signalId: signal.id, deviceId: signal.device_id, unit: signal.unit, isCounter },
        factor: factor ?? 1,
        energy:
          c.energy === 'interval' && isCounter
            ? 'accumulate'
            : c.energy === 'counter' && !isCounter
              ? 'difference'
              : 'as_is',
      });
    });
    const timeZone = mapping.time_zone ?? plant.time_zone;
    // The file is read on its thread with the plans; its sheets as read (with the mapping's overrides)
    // then tell whether each mapped column is one of them.
    const content = await repo.readContent(this.ctx.db, row.id);
    const read = await this.read(userId, row.format as 'csv' | 'xlsx', content!, mapping, {
      plans,
      timeZone,
    });
    mapping.columns.forEach((c, i) => {
      const at = `columns.${i}`;
      const sheet = read.detection.sheets.find((sh) => sh.name === c.sheet);
      const column = sheet?.columns.find((col) => col.index === c.column);
      if (!sheet) (errors[`${at}.sheet`] ??= []).push(V.invalidValue);
      else if (!column || c.column === sheet.time_column)
        (errors[`${at}.column`] ??= []).push(V.invalidValue);
    });
    if (Object.keys(errors).length) throw badRequest(errors);
    return {
      rows: read.rows,
      bySignal: await signalPointsOf(read),
      plans,
      timeZone,
      plant: {
        plantId: plant.id,
        timeZone: plant.time_zone,
        // Without a location the quality report leaves out the checks against the sun (docs/data-quality.md).
        latitude: plant.latitude,
        longitude: plant.longitude,
        tiltDeg: plant.tilt_deg,
        azimuthDeg: plant.azimuth_deg,
        acCapacityKw: plant.ac_capacity_kw,
        dcCapacityKwp: plant.dc_capacity_kwp,
      },
      signals: new Map(
        [...found.values()].map((s) => [
          s.id,
          { key: s.key, deviceName: s.device_name, ratedPowerKw: s.rated_power_kw },
        ]),
      ),
    };
  }

  /** The raw retention's edge: older points go to rollups only. */
  private cutoffMs(): number {
    return this.ctx.now() - this.ctx.settings.current().raw_retention_days * DAY_MS;
  }

  /** POST history-imports/{id}/preview: what the mapping would store, and its quality report. Stores nothing. */
  async preview(actor: Actor, id: number, mapping: Mapping): Promise<HistoryImportPreview> {
    const r = await this.resolve(actor, id, mapping);
    const { rows, bySignal } = r;
    const meta = await loadSignalMeta(this.ctx.db, this.ctx.dialect, [...bySignal.keys()]);
    const cutoff = this.cutoffMs();
    let points = 0;
    let rollupOnly = 0;
    let from = Infinity;
    let to = -Infinity;
    const signals: HistoryImportPreview['signals'] = [];
    for (const s of bySignal.values()) {
      // The detectors over a year of a signal take a few hundred ms: one signal per turn.
      await nextTurn();
      const info = r.signals.get(s.signal.signalId)!;
      const list = s.points;
      points += list.length;
      for (const p of list) if (p.ts < cutoff) rollupOnly++;
      if (list.length) {
        from = Math.min(from, list[0]!.ts);
        to = Math.max(to, list[list.length - 1]!.ts);
      }
      const m = meta.get(s.signal.signalId);
      signals.push({
        signal_id: s.signal.signalId,
        device_id: s.signal.deviceId,
        device_name: info.deviceName,
        signal_key: info.key,
        unit: s.signal.unit,
        points: list.length,
        from: list.length ? iso(list[0]!.ts) : null,
        to: list.length ? iso(list[list.length - 1]!.ts) : null,
        quality: signalQuality(
          s,
          { key: info.key, ratedPowerKw: info.ratedPowerKw, bounds: m?.bounds ?? { min: null, max: null } },
          r.plant,
        ),
      });
    }
    await repo.updateImport(this.ctx.db, id, { mapping: JSON.stringify(mapping) });
    return {
      rows,
      points,
      from: points ? iso(from) : null,
      to: points ? iso(to) : null,
      time_zone: r.timeZone,
      points_rollup_only: rollupOnly,
      signals,
      quality: sumQuality(signals.map((s) => s.quality)),
    };
  }

  /**
   * POST history-imports/{id}/run: the mapping checked now (400), then the import started in the
   * background; the answer is the job (state `queued`), polled with GET history-imports/{id}. 409 while
   * it is already queued or running.
   */
  async run(actor: Actor, id: number, mapping: Mapping): Promise<HistoryImportJob> {
    const r = await this.resolve(actor, id, mapping);
    const claimed = await repo.claimImport(this.ctx.db, id, ['uploaded', 'done', 'failed'], {
      state: 'queued',
      mapping: JSON.stringify(mapping),
      points_total: 0,
      points_done: 0,
      points_new: 0,
      points_existing: 0,
      errors: '[]',
      started_at: null,
      finished_at: null,
      heartbeat_at: this.ctx.now(),
    });
    if (!claimed) throw conflict(HISTORY_IMPORT_ERRORS.notEditable);
    await recordAudit(this.ctx.db, {
      userId: actor.userId,
      action: 'import',
      entity: 'history_import',
      entityId: id,
      after: { plant_id: r.row.plant_id, file_name: r.row.file_name, mapping },
      ip: actor.ip,
      at: this.ctx.now(),
    });
    this.startExecution(id, r, { storedBefore: 0, resumed: false });
    return jobOf((await repo.readImport(this.ctx.db, id))!);
  }

  /** Runs execute() in the background, its heartbeat written meanwhile; a failure fails the job. */
  private startExecution(id: number, r: Resolved, from: Resumption): void {
    const heartbeat = setInterval(() => {
      void repo.updateImport(this.ctx.db, id, { heartbeat_at: this.ctx.now() }).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const job = this.execute(id, r, from)
      .catch(async (error: unknown) => {
        this.log.error({ err: error, importId: id }, 'history import failed');
        await repo
          .updateImport(this.ctx.db, id, {
            state: 'failed',
            errors: JSON.stringify([HISTORY_IMPORT_ERRORS.failed]),
            finished_at: this.ctx.now(),
            heartbeat_at: null,
          })
          .catch(() => undefined);
      })
      .finally(() => clearInterval(heartbeat));
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }

  /**
   * The import itself: each signal's points checked as ingest checks them (values outside the signal's
   * bounds and timestamps in the future are left out), then stored through the telemetry store — raw
   * points with their rollups within the raw retention, rollups only before it — in chunks, with the
   * job's progress written after each.
   */
  private async execute(id: number, r: Resolved, from: Resumption): Promise<void> {
    const { db, dialect } = this.ctx;
    await repo.updateImport(db, id, {
      state: 'running',
      heartbeat_at: this.ctx.now(),
      ...(from.resumed ? {} : { started_at: this.ctx.now() }),
    });
    const { bySignal } = r;
    const meta = await loadSignalMeta(db, dialect, [...bySignal.keys()]);
    const latest = this.ctx.now() + TELEMETRY_FUTURE_TOLERANCE_MS;
    const cutoff = this.cutoffMs();
    const work: { signal: SignalPoints['signal']; old: Point[]; recent: Point[] }[] = [];
    let total = 0;
    for (const s of bySignal.values()) {
      await nextTurn();
      const bounds = meta.get(s.signal.signalId)?.bounds ?? { min: null, max: null };
      const ok = s.points.filter(
        (p) =>
          p.ts <= latest &&
          (bounds.min === null || p.value >= bounds.min) &&
          (bounds.max === null || p.value <= bounds.max),
      );
      total += ok.length;
      work.push({
        signal: s.signal,
        old: ok.filter((p) => p.ts < cutoff),
        recent: ok.filter((p) => p.ts >= cutoff),
      });
    }
    await repo.updateImport(db, id, { points_total: total });
    let done = 0;
    let fresh = 0;
    let existing = 0;
    // After a resume, what the dead process stored comes back as existing: counted as new once.
    const counts = () => ({
      points_done: done,
      points_new: from.storedBefore + fresh,
      points_existing: Math.max(0, existing - from.storedBefore),
    });
    const progress = () => repo.updateImport(db, id, { ...counts(), heartbeat_at: this.ctx.now() });
    for (const w of work) {
      for (let i = 0; i < w.old.length; i += ROLLUP_CHUNK) {
        const part = w.old.slice(i, i + ROLLUP_CHUNK);
        const result = await storeRollupsOnly(db, dialect, new Map([[w.signal.signalId, part]]));
        fresh += result.inserted;
        existing += result.existing;
        // Raw points mark their days through the store's listener; rollups only must mark theirs.
        await markDaysOfInstantsDirty(
          db,
          r.plant.plantId,
          r.plant.timeZone,
          part.map((p) => p.ts),
          this.ctx.now(),
        );
        done += part.length;
        await progress();
      }
      for (let i = 0; i < w.recent.length; i += RAW_CHUNK) {
        const part = w.recent
          .slice(i, i + RAW_CHUNK)
          .map((p) => ({ signal_id: w.signal.signalId, ts: p.ts, value: p.value }));
        const result = await this.ctx.telemetry.store(part);
        fresh += result.inserted;
        existing += result.duplicates;
        done += part.length;
        await progress();
      }
    }
    await repo.updateImport(db, id, {
      state: 'done',
      ...counts(),
      finished_at: this.ctx.now(),
      heartbeat_at: null,
    });
  }
}
