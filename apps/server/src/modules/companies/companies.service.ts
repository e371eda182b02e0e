import type { z } from 'zod';
import { E, type Company, type CompanyList, type companyBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { auditedRemove, auditedSave } from '../audit';
import { conflict } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import { found, hasChildren, type Actor } from '../../lib/actor';
import { raiseCompanyTokenVersions } from '../auth';
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
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now' | 'sessionEvents'>) {}

  list(actor: Actor, filter: repo.CompanyListFilter): Promise<CompanyList> {
    return repo.listCompanies(this.ctx.db, scopeOf(actor), filter);
  }

  async get(actor: Actor, id: number): Promise<Company> {
    return found(await repo.findCompany(this.ctx.db, scopeOf(actor), id));
  }

  /**
   * id 0 creates. Admin only (the routes declare access.admin). Deactivating a company
   * ends every session of its users at once (their token versions rise with the change); sign-ins of its
   * users are refused while it stays inactive (docs/security.md, "Accounts and sessions").
   */
  async save(actor: Actor, id: number, body: Body): Promise<Company> {
    const scope = scopeOf(actor);
    let lockedOut: number[] = [];
    const saved = await auditedSave(this.ctx, actor, id, {
      entity: 'company',
      find: (trx, companyId) => repo.findCompany(trx, scope, companyId),
      insert: (trx, now) => repo.insertCompany(trx, valuesOf(body), now),
      update: async (trx, companyId, before, now) => {
        await repo.updateCompany(trx, companyId, valuesOf(body), now);
        if (before.is_active && !body.is_active) lockedOut = await raiseCompanyTokenVersions(trx, companyId);
      },
    });
    // After the commit: their open streams end now, not at the next heartbeat.
    for (const userId of lockedOut) this.ctx.sessionEvents.emit({ kind: 'user', userId });
    return saved;
  }

  /** Refused with 409 while fields or users still belong to the company (no cascade, no deactivation). */
  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await auditedRemove(this.ctx, actor, id, {
      entity: 'company',
      find: (trx, companyId) => repo.findCompany(trx, scope, companyId),
      check: async (trx) => {
        const children = await repo.companyChildren(trx, id);
        if (children.fields || children.users) throw hasChildren(children);
      },
      remove: (trx, companyId) => repo.deleteCompany(trx, companyId),
      onForeignKey: () => conflict(E.hasChildren),
    });
  }
}
