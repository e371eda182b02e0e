import {
  INFORMATIONAL_REASONS,
  V,
  type DataQualityAnswer,
  type DataQualityFlag,
  type DataQualityProblemList,
  type DataQualityReason,
  type DataQualityRecheckAnswer,
} from '@solar/shared';
import type { Db, Dialect } from '../../db/database';
import { found, type Actor } from '../../lib/actor';
import { badRequest, conflict } from '../../lib/http-errors';
import { iso } from '../../lib/listing';
import { scopeOf } from '../../lib/scope';
import { dayStart, localDate, nextDate } from '../../telemetry-store/buckets';
import { recordAudit } from '../audit';
import * as repo from './data-quality.repository';
import { skippedChecks } from './detectors';
import { DataQualityEngine } from './engine/data-quality-engine';
import type { DetectionRunner } from './engine/detection-runner';

const informational = (reason: DataQualityReason) => INFORMATIONAL_REASONS.includes(reason);

/** A stored flag as the API answers it. */
export function flagAnswer(f: repo.FlagRow): DataQualityFlag {
  return {
    id: f.id,
    plant_id: f.plantId,
    device_id: f.deviceId,
    device_name: f.deviceName,
    signal_id: f.signalId,
    signal_key: f.signalKey,
    reason: f.reason,
    informational: informational(f.reason),
    local_day: f.localDay,
    from: iso(f.fromMs),
    to: iso(f.toMs),
    readings: f.readings,
    missing: Math.max(0, Math.round(f.detail.missing ?? 0)),
    detail: f.detail,
    detected_at: iso(f.detectedAt),
    accepted_at: f.acceptedAt === null ? null : iso(f.acceptedAt),
    accepted_by: f.acceptedBy,
    accept_note: f.acceptNote,
  };
}

/** Readings a flag concerns: those it covers and, for a gap, those missing. */
const concerned = (f: DataQualityFlag) => f.readings + f.missing;

/**
 * What a period's flags amount to: per reason the flags and the readings they concern, as a share of the
 * readings the signals should have sent (each signal's device interval over the period, up to now); the
 * problem share counts neither accepted nor informational flags. Flags of one reading may overlap (a spike
 * inside a stale run), so a share is capped at 1.
 */
export function summarise(
  flags: readonly DataQualityFlag[],
  expected: number,
): Pick<DataQualityAnswer, 'expected_readings' | 'problem_readings' | 'problem_share' | 'by_reason'> {
  const share = (n: number) => (expected > 0 ? Math.min(1, n / expected) : null);
  const byReason = new Map<DataQualityReason, { flags: number; readings: number }>();
  let problems = 0;
  for (const f of flags) {
    const entry = byReason.get(f.reason) ?? { flags: 0, readings: 0 };
    entry.flags++;
    entry.readings += concerned(f);
    byReason.set(f.reason, entry);
    if (!f.informational && f.accepted_at === null) problems += concerned(f);
  }
  return {
    expected_readings: expected,
    problem_readings: problems,
    problem_share: share(problems),
    by_reason: [...byReason].map(([reason, e]) => ({ reason, ...e, share: share(e.readings) })),
  };
}

/** Readings expected of signals reporting every `intervalsMs` over [fromMs, toMs). */
export function expectedReadings(
  intervalsMs: readonly (number | null)[],
  fromMs: number,
  toMs: number,
): number {
  if (toMs <= fromMs) return 0;
  let n = 0;
  for (const step of intervalsMs) if (step !== null && step > 0) n += Math.floor((toMs - fromMs) / step);
  return n;
}

/** The data-quality rules: scoping, the engine's runs on request, acceptance with its audit. */
export class DataQualityService {
  private readonly engine: DataQualityEngine;

  constructor(
    private readonly ctx: {
      db: Db;
      dialect: Dialect;
      now: () => number;
      dataQualityThread?: DetectionRunner;
    },
  ) {
    // A recheck is a plant day like the job's: its detectors run on the thread, not on a request's turn.
    this.engine = new DataQualityEngine({ ...ctx, thread: ctx.dataQualityThread });
  }

  private async plantOf(actor: Actor, id: number): Promise<repo.DqPlant> {
    const [plant] = await repo.findPlants(this.ctx.db, scopeOf(actor), id);
    return found(plant);
  }

  private async answer(
    plant: repo.DqPlant,
    deviceId: number | null,
    query: { from?: string; to?: string },
  ): Promise<DataQualityAnswer> {
    const { db, now } = this.ctx;
    const today = localDate(now(), plant.timeZone);
    const to = query.to ?? (query.from && query.from > today ? query.from : today);
    const from = query.from ?? (to < today ? to : today);
    const flags = (
      await repo.readFlags(db, {
        plantId: plant.id,
        ...(deviceId === null ? {} : { deviceId }),
        fromDay: from,
        toDay: to,
      })
    ).map(flagAnswer);
    const signals = (await repo.loadSignals(db, [plant.id])).filter(
      (s) => deviceId === null || s.deviceId === deviceId,
    );
    const fromMs = dayStart(from, plant.timeZone);
    const toMs = Math.min(now(), dayStart(nextDate(to), plant.timeZone));
    const expected = expectedReadings(
      signals.map((s) => (s.pollIntervalS > 0 ? s.pollIntervalS * 1000 : null)),
      fromMs,
      toMs,
    );
    return {
      plant_id: plant.id,
      device_id: deviceId,
      time_zone: plant.timeZone,
      from,
      to,
      ...summarise(flags, expected),
      flags,
      skipped_checks: skippedChecks(plant),
    };
  }

  /** GET /api/plants/{id}/data-quality. */
  async plant(actor: Actor, id: number, query: { from?: string; to?: string }): Promise<DataQualityAnswer> {
    return this.answer(await this.plantOf(actor, id), null, query);
  }

  /** GET /api/devices/{id}/data-quality. */
  async device(actor: Actor, id: number, query: { from?: string; to?: string }): Promise<DataQualityAnswer> {
    const device = found(await repo.findDevice(this.ctx.db, scopeOf(actor), id));
    return this.answer(await this.plantOf(actor, device.plantId), device.id, query);
  }

  /** GET /api/data-quality/problems. */
  async problems(
    actor: Actor,
    query: { page: number; pageSize: number; q?: string; plant_id?: number; reason?: DataQualityReason },
  ): Promise<DataQualityProblemList> {
    const { items, total } = await repo.readProblems(this.ctx.db, scopeOf(actor), {
      informational: INFORMATIONAL_REASONS,
      page: query.page,
      pageSize: query.pageSize,
      ...(query.q ? { q: query.q } : {}),
      ...(query.plant_id === undefined ? {} : { plantId: query.plant_id }),
      ...(query.reason === undefined ? {} : { reason: query.reason }),
    });
    return {
      items: items.map((f) => ({ ...flagAnswer(f), plant_name: f.plantName, time_zone: f.timeZone })),
      total,
    };
  }

  /**
   * POST /api/data-quality/flags/{id}/accept: the operator says the data is right (a real zero during a
   * grid outage); audited with the note, in the same transaction. A flag accepted before answers 409.
   */
  async accept(actor: Actor, id: number, note: string): Promise<DataQualityFlag> {
    const scope = scopeOf(actor);
    const before = found(await repo.findFlag(this.ctx.db, scope, id));
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      if (!(await repo.acceptFlag(trx, id, actor.userId, note, now))) throw conflict();
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'accept',
        entity: 'data_quality_flag',
        entityId: id,
        before: { reason: before.reason, accepted_at: null },
        after: {
          plant_id: before.plantId,
          device_id: before.deviceId,
          signal_id: before.signalId,
          reason: before.reason,
          local_day: before.localDay,
          from: iso(before.fromMs),
          to: iso(before.toMs),
          accepted_at: iso(now),
          accept_note: note,
        },
        ip: actor.ip,
        at: now,
      });
    });
    return flagAnswer(found(await repo.findFlag(this.ctx.db, scope, id)));
  }

  /** POST /api/plants/{id}/data-quality/recheck: runs the engine over the plant's day again. */
  async recheck(actor: Actor, id: number, day: string): Promise<DataQualityRecheckAnswer> {
    const plant = await this.plantOf(actor, id);
    if (day > localDate(this.ctx.now(), plant.timeZone)) throw badRequest({ day: [V.outOfRange] });
    const run = await this.engine.runPlantDay(plant, day);
    return { plant_id: plant.id, day, flags: run.flags, skipped_checks: run.skippedChecks };
  }
}
