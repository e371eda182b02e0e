import { E, V, type BudgetImportAnswer, type PlantBudgetAnswer, type PlantBudgetBody } from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { badRequest, HttpError, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { BUDGET_IMPORT_CONCURRENCY } from './budget-file-limits';
import type { BudgetFile } from './budget-file-reader';
import { checkRows } from './budget-import';
import { BudgetReaderThreads } from './budget-import-reader';
import * as repo from './budgets.repository';

type Body = Omit<PlantBudgetBody, never>;

/** Plants' monthly P50 budgets: read and saved per plant and year, imported from a file. */
export class BudgetsService {
  private readonly threads = new BudgetReaderThreads();

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'uploadReadingSlots'>) {}

  private async inScope(actor: Actor, plantId: number) {
    const found = await repo.plantsInScope(this.ctx.db, scopeOf(actor), [plantId]);
    if (!found.has(plantId)) throw notFound();
  }

  /** Ends the reader thread kept for the next import (the app is closing). */
  close(): Promise<void> {
    return this.threads.close();
  }

  /** GET plants/{id}/budgets?year= */
  async get(actor: Actor, plantId: number, year: number): Promise<PlantBudgetAnswer> {
    await this.inScope(actor, plantId);
    return { plant_id: plantId, year, months: await repo.readYear(this.ctx.db, plantId, year) };
  }

  /** POST plants/{id}/budgets: the year's months replace what was stored for that year. */
  async save(actor: Actor, plantId: number, body: Body): Promise<PlantBudgetAnswer> {
    await this.inScope(actor, plantId);
    const before = await repo.readYear(this.ctx.db, plantId, body.year);
    const now = this.ctx.now();
    await repo.writeBudgets(
      this.ctx.db,
      body.months.map((m) => ({
        plantId,
        year: body.year,
        month: m.month,
        energyKwh: m.energy_kwh,
        irradiationKwhM2: m.irradiation_kwh_m2 ?? null,
      })),
      now,
      [{ plantId, year: body.year }],
    );
    const after = await this.get(actor, plantId, body.year);
    await recordAudit(this.ctx.db, {
      userId: actor.userId,
      action: 'update',
      entity: 'plant_budget',
      entityId: plantId,
      before: { year: body.year, months: before },
      after,
      ip: actor.ip,
      at: now,
    });
    return after;
  }

  /**
   * The upload's rows, read on a thread within the file limits (docs/security.md, "Uploads"): 429
   * errors.budgetImportBusy when the caller or the servers already read as many files as allowed; 400
   * errors.badRequest when the body is not JSON or fails `budgetImportBody` (checked on the thread, field
   * errors as every route words them); 400 errors.budgetImportInvalid when the file is over a limit
   * (validation.fileTooLarge) or not a file of its format (validation.invalidValue).
   */
  private async read(actor: Actor, body: Buffer): Promise<BudgetFile> {
    const release = await this.ctx.uploadReadingSlots.take(actor.userId);
    if (!release)
      throw new HttpError(429, E.budgetImportBusy, undefined, {
        'retry-after': String(BUDGET_IMPORT_CONCURRENCY.retryAfterS),
      });
    try {
      const answer = await this.threads.read(body);
      if (answer.ok) return answer.file;
      if (answer.reason === 'badRequest') throw new HttpError(400, E.badRequest, answer.errors);
      const message = answer.reason === 'tooLarge' ? V.fileTooLarge : V.invalidValue;
      throw badRequest({ content_base64: [message] }, E.budgetImportInvalid);
    } finally {
      await release();
    }
  }

  /**
   * POST budgets/import with the request's body as it came (JSON, read on the thread): every row is
   * checked first; any bad row answers 400 errors.budgetImportInvalid with `errors` keyed `line N: column`
   * and nothing is stored.
   */
  async import(actor: Actor, body: Buffer): Promise<BudgetImportAnswer> {
    const parsed = await this.read(actor, body);
    const ids = [
      ...new Set(
        parsed.rows
          .map((r) => Number(r.cells[0]))
          .filter((id) => Number.isInteger(id) && id > 0 && id < 2 ** 31),
      ),
    ];
    const inScope = await repo.plantsInScope(this.ctx.db, scopeOf(actor), ids);
    const { rows, problems } = checkRows(parsed.header, parsed.rows, inScope);
    if (problems.length) {
      const errors: Record<string, string[]> = {};
      for (const p of problems) (errors[`line ${p.line}: ${p.column}`] ??= []).push(p.message);
      throw badRequest(errors, E.budgetImportInvalid);
    }
    const now = this.ctx.now();
    await repo.writeBudgets(this.ctx.db, rows, now);
    const plants = new Set(rows.map((r) => r.plantId));
    await recordAudit(this.ctx.db, {
      userId: actor.userId,
      action: 'import',
      entity: 'plant_budget',
      entityId: null,
      after: { rows: rows.length, plants: [...plants] },
      ip: actor.ip,
      at: now,
    });
    return { imported: rows.length, plants: plants.size };
  }
}
