import type { z } from 'zod';
import { E, type Company, type CompanyList, type companyBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { recordAudit } from '../../lib/audit';
import { isForeignKeyViolation } from '../../lib/db-errors';
import { conflict, forbidden, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { found, hasChildren, type Actor } from '../../lib/actor';
import * as repo from './companies.repository';

type Body = z.output<typeof companyBody>;

const valuesOf = (body: Body): repo.CompanyValues => ({
  name: body.name,
  tax_number: body.tax_number ?? null,
  tax_office: body.tax_office ?? null,
  address: body.address ?? null,
  phone: body.phone ?? null,
  email: body.email ?? null,
  is_active: body.is_active,
});

/** Companies (tenants): everyone reads the companies in their scope; only the admin changes them. */
export class CompaniesService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(actor: Actor, filter: repo.CompanyListFilter): Promise<CompanyList> {
    return repo.listCompanies(this.ctx.db, scopeOf(actor), filter);
  }

  async get(actor: Actor, id: number): Promise<Company> {
    return found(await repo.findCompany(this.ctx.db, scopeOf(actor), id));
  }

  /** id 0 creates. Admin only (403 for anyone else, whatever their permissions). */
  async save(actor: Actor, id: number, body: Body): Promise<Company> {
    if (!actor.isAdmin) throw forbidden();
    const scope = scopeOf(actor);
    return this.ctx.db.transaction().execute(async (trx) => {
      const now = this.ctx.now();
      const before = id === 0 ? undefined : await repo.findCompany(trx, scope, id);
      if (id !== 0 && !before) throw notFound();
      if (before) await repo.updateCompany(trx, id, valuesOf(body), now);
      const savedId = before ? id : await repo.insertCompany(trx, valuesOf(body), now);
      const after = (await repo.findCompany(trx, scope, savedId))!;
      await recordAudit(trx, {
        userId: actor.userId,
        action: before ? 'update' : 'create',
        entity: 'company',
        entityId: savedId,
        before,
        after,
        ip: actor.ip,
        at: now,
      });
      return after;
    });
  }

  /** Refused with 409 while fields or users still belong to the company (no cascade, no deactivation). */
  async remove(actor: Actor, id: number): Promise<void> {
    if (!actor.isAdmin) throw forbidden();
    const scope = scopeOf(actor);
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const before = await repo.findCompany(trx, scope, id);
        if (!before) throw notFound();
        const children = await repo.companyChildren(trx, id);
        if (children.fields || children.users) throw hasChildren(children);
        await repo.deleteCompany(trx, id);
        await recordAudit(trx, {
          userId: actor.userId,
          action: 'delete',
          entity: 'company',
          entityId: id,
          before,
          ip: actor.ip,
          at: this.ctx.now(),
        });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(E.hasChildren);
      throw error;
    }
  }
}
