import {
  E,
  type BudgetImportAnswer,
  type BudgetImportBody,
  type PlantBudgetAnswer,
  type PlantBudgetBody,
} from '@solar/shared';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { recordAudit } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { checkRows, csvRows, xlsxRows } from './budget-import';
import * as repo from './budgets.repository';

type Body = Omit<PlantBudgetBody, never>;

/** Plants' monthly P50 budgets (issue 12): read and saved per plant and year, imported from a file. */
export class BudgetsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  private async inScope(actor: Actor, plantId: number) {
    const found = await repo.plantsInScope(this.ctx.db, scopeOf(actor), [plantId]);
    if (!found.has(plantId)) throw notFound();
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
   * POST budgets/import: every row is checked first; any bad row answers 400 errors.budgetImportInvalid
   * with `errors` keyed `line N: column` and nothing is stored.
   */
  async import(actor: Actor, body: BudgetImportBody): Promise<BudgetImportAnswer> {
    const data = Buffer.from(body.content_base64, 'base64');
    let parsed: Awaited<ReturnType<typeof xlsxRows>>;
    try {
      parsed = body.format === 'csv' ? csvRows(data.toString('utf8')) : await xlsxRows(data);
    } catch {
      throw badRequest({ content_base64: ['validation.invalidValue'] }, E.budgetImportInvalid);
    }
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
