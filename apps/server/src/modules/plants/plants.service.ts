import type { z } from 'zod';
import { E, PLANT_MODEL_DEFAULTS, type Plant, type PlantList, type plantBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, hasChildren, type Actor } from '../../lib/actor';
import { auditedRemove, auditedSave } from '../audit';
import { conflict, forbidden, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import * as repo from './plants.repository';

type Body = z.output<typeof plantBody>;

const valuesOf = (body: Body): repo.PlantValues => ({
  field_id: body.field_id,
  name: body.name,
  dc_capacity_kwp: body.dc_capacity_kwp ?? null,
  ac_capacity_kw: body.ac_capacity_kw ?? null,
  latitude: body.latitude ?? null,
  longitude: body.longitude ?? null,
  time_zone: body.time_zone,
  commissioning_date: body.commissioning_date ?? null,
  subscriber_numbers: body.subscriber_numbers,
  tilt_deg: body.tilt_deg ?? null,
  azimuth_deg: body.azimuth_deg ?? null,
  temperature_coefficient_per_k:
    body.temperature_coefficient_per_k ?? PLANT_MODEL_DEFAULTS.temperature_coefficient_per_k,
  system_loss_fraction: body.system_loss_fraction ?? PLANT_MODEL_DEFAULTS.system_loss_fraction,
  is_active: body.is_active,
});

/** Plants (santral): created under a reachable field; a plant reached through a plant unit can be edited in place. */
export class PlantsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(actor: Actor, filter: repo.PlantListFilter): Promise<PlantList> {
    return repo.listPlants(this.ctx.db, scopeOf(actor), filter);
  }

  async get(actor: Actor, id: number): Promise<Plant> {
    return found(await repo.findPlant(this.ctx.db, scopeOf(actor), id));
  }

  /** id 0 creates. An unreachable plant or field answers 404 and changes nothing. */
  async save(actor: Actor, id: number, body: Body): Promise<Plant> {
    const scope = scopeOf(actor);
    const values = valuesOf(body);
    return auditedSave(this.ctx, actor, id, {
      entity: 'plant',
      find: (trx, plantId) => repo.findPlant(trx, scope, plantId),
      check: async (trx, before) => {
        if (
          before?.field_id !== values.field_id &&
          !(await repo.fieldReachable(trx, scope, values.field_id))
        ) {
          throw notFound();
        }
      },
      insert: (trx, now) => repo.insertPlant(trx, values, now),
      update: (trx, plantId, _before, now) => repo.updatePlant(trx, plantId, values, now),
      // The field was deleted between the check and the write.
      onForeignKey: notFound,
    });
  }

  /** Refused with 409 while devices remain in the plant. */
  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await auditedRemove(this.ctx, actor, id, {
      entity: 'plant',
      find: (trx, plantId) => repo.findPlant(trx, scope, plantId),
      check: async (trx, before) => {
        // Like creating one: a plant reached only through a plant unit cannot be deleted by that user.
        if (!(await repo.fieldReachable(trx, scope, before.field_id))) throw forbidden();
        const devices = await repo.countDevices(trx, id);
        if (devices) throw hasChildren({ devices });
      },
      remove: (trx, plantId) => repo.deletePlant(trx, plantId),
      onForeignKey: () => conflict(E.hasChildren),
    });
  }
}
