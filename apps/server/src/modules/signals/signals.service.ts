import type { z } from 'zod';
import { E, V, type Signal, type SignalList, type signalBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { auditedRemove, auditedSave } from '../audit';
import { conflict, notFound } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import * as repo from './signals.repository';

type Body = z.output<typeof signalBody>;

const valuesOf = (body: Body): repo.SignalValues => ({
  device_id: body.device_id,
  key: body.key,
  name: body.name,
  unit: body.unit ?? null,
  data_type: body.data_type,
  register_type: body.register_type ?? null,
  address: body.address ?? null,
  word_order: body.word_order ?? null,
  scale: body.scale,
  is_counter: body.is_counter,
  is_active: body.is_active,
  min_value: body.min_value ?? null,
  max_value: body.max_value ?? null,
  ...(body.value_map !== undefined && { value_map: storedValueMap(body.value_map) }),
});

/** The map as `signals.value_map` holds it: JSON, or null for none (an empty map maps nothing, so none). */
const storedValueMap = (map: Body['value_map']): string | null =>
  map && Object.keys(map).length > 0 ? JSON.stringify(map) : null;

const duplicateKey = () => conflict(E.duplicate, { key: [V.duplicate] });

/** Signals (tags) of a device; the key is unique per device. */
export class SignalsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  list(actor: Actor, filter: repo.SignalListFilter): Promise<SignalList> {
    return repo.listSignals(this.ctx.db, scopeOf(actor), filter);
  }

  async get(actor: Actor, id: number): Promise<Signal> {
    return found(await repo.findSignal(this.ctx.db, scopeOf(actor), id));
  }

  /** id 0 creates. An unreachable signal or device answers 404; a key used twice on a device 409. */
  async save(actor: Actor, id: number, body: Body): Promise<Signal> {
    const scope = scopeOf(actor);
    const values = valuesOf(body);
    return auditedSave(this.ctx, actor, id, {
      entity: 'signal',
      find: (trx, signalId) => repo.findSignal(trx, scope, signalId),
      check: async (trx, before) => {
        if (
          before?.device_id !== values.device_id &&
          !(await repo.deviceReachable(trx, scope, values.device_id))
        ) {
          throw notFound();
        }
        if (await repo.keyTaken(trx, values.device_id, values.key, id)) throw duplicateKey();
      },
      insert: (trx, now) => repo.insertSignal(trx, values, now),
      update: (trx, signalId, _before, now) => repo.updateSignal(trx, signalId, values, now),
      onUnique: duplicateKey,
      // The device was deleted between the check and the write.
      onForeignKey: notFound,
    });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const scope = scopeOf(actor);
    await auditedRemove(this.ctx, actor, id, {
      entity: 'signal',
      find: (trx, signalId) => repo.findSignal(trx, scope, signalId),
      remove: (trx, signalId) => repo.deleteSignal(trx, signalId),
    });
  }
}
