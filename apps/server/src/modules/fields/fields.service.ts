import type { z } from 'zod';
import { E, type Field, type FieldList, type fieldBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, hasChildren, type Actor } from '../../lib/actor';
import { auditedRemove, auditedSave } from '../audit';
import { conflict, forbidden, notFound } from '../../lib/http-errors';
import { companyReach, scopeOf } from '../../lib/scope';
import * as repo from './fields.repository';

type Body = z.output<typeof fieldBody>;

const valuesOf = (body: Body): repo.FieldValues => ({
  company_id: body.company_id,
  name: body.name,
  city: body.city ?? null,
  district: body.district ?? null,
  address: body.address ?? null,
  latitude: body.latitude ?? null,
  longitude: body.longitude ?? null,
  is_active: body.is_active,
});

/**
 * Fields (sites). A field is changed by whoever reaches it; creating one, moving one to a company and
 * deleting one needs the whole company in scope.
 */
export class FieldsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(actor: Actor, filter: repo.FieldListFilter): Promise<FieldList> {
    return repo.listFields(this.ctx.db, scopeOf(actor), filter);
  }

  async get(actor: Actor, id: number): Promise<Field> {
    return found(await repo.findField(this.ctx.db, scopeOf(actor), id));
  }

  /** id 0 creates. An unreachable field or company answers 404 and changes nothing. */
  async save(actor: Actor, id: number, body: Body): Promise<Field> {
    const scope = scopeOf(actor);
    const values = valuesOf(body);
    return auditedSave(this.ctx, actor, id, {
      entity: 'field',
      find: (trx, fieldId) => repo.findField(trx, scope, fieldId),
      check: async (trx, before) => {
        if (!before || before.company_id !== values.company_id) {
          const reach = companyReach(scope, values.company_id);
          if (reach === 'hidden' || !(await repo.companyExists(trx, values.company_id))) throw notFound();
          if (reach === 'narrowed') throw forbidden();
        }
      },
      insert: (trx, now) => repo.insertField(trx, values, now),
      update: (trx, fieldId, _before, now) => repo.updateField(trx, fieldId, values, now),
      // The company was deleted between the check and the write.
      onForeignKey: notFound,
    });
  }

  /** Refused with 409 while plants remain in the field. */
  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await auditedRemove(this.ctx, actor, id, {
      entity: 'field',
      find: (trx, fieldId) => repo.findField(trx, scope, fieldId),
      check: async (trx, before) => {
        if (companyReach(scope, before.company_id) !== 'whole') throw forbidden();
        const plants = await repo.countPlants(trx, id);
        if (plants) throw hasChildren({ plants });
      },
      remove: (trx, fieldId) => repo.deleteField(trx, fieldId),
      onForeignKey: () => conflict(E.hasChildren),
    });
  }
}
